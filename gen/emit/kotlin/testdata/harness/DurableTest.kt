// DurableTest drives the durable runtime generated for specs/alerts
// (AlertToolProviderStore) under Robolectric, on Android's own
// android.database.sqlite classes over a real SQLite engine (Robolectric's
// LEGACY SQLite mode, sqlite4java's native SQLite): the exactly-once
// mutation executor, single-use resume tokens, persisted operations and
// scope grants. Calls go through the SDK's hooks in the SDK's order
// (authorize, then mutationExecutor.execute around executeTool), as the
// SDK's execute_tool does; a manual clock stands in for time.
package harness

import android.app.PendingIntent
import android.content.Intent
import android.database.sqlite.SQLiteDatabase
import com.example.app.cetp.AlertToolProviderBase
import com.example.app.cetp.AlertToolProviderReply
import com.example.app.cetp.AlertToolProviderStore
import com.example.app.cetp.CreateAlertInput
import com.example.app.cetp.CreateAlertOutput
import com.example.app.cetp.DeleteAlertInput
import com.example.app.cetp.DeleteAlertOutput
import com.example.app.cetp.ListAlertsInput
import com.example.app.cetp.ListAlertsOutput
import com.example.app.cetp.UpdateAlertInput
import com.example.app.cetp.UpdateAlertOutput
import dev.clawseed.sdk.android.cetp.CetpAccessDecision
import dev.clawseed.sdk.android.cetp.CetpCallerIdentity
import dev.clawseed.sdk.android.cetp.CetpCallerPackage
import dev.clawseed.sdk.android.cetp.CetpProviderRequest
import dev.clawseed.sdk.android.cetp.CetpProviderResult
import dev.clawseed.sdk.android.cetp.OperationState
import java.io.File
import java.util.concurrent.CountDownLatch
import java.util.concurrent.Executors
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger
import java.util.concurrent.atomic.AtomicLong
import kotlinx.serialization.json.Json
import kotlinx.serialization.json.jsonObject
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.RobolectricTestRunner
import org.robolectric.RuntimeEnvironment
import org.robolectric.annotation.Config
import org.robolectric.annotation.SQLiteMode

/** DAY is one day in milliseconds, the alerts spec's idempotency window. */
const val DAY = 86_400_000L

/**
 * Shop is an app over the generated alerts base class whose typed methods
 * write its own table, alerts, in the database the store lives in.
 */
class Shop(val db: SQLiteDatabase, val clock: AtomicLong) : AlertToolProviderBase() {
    val store = AlertToolProviderStore(db, clock = { clock.get() })
    override val durableStore: AlertToolProviderStore get() = store
    val runs = AtomicInteger()
    var slow = 0L
    var failAfterWrite: Exception? = null
    var afterWrite: (() -> Unit)? = null
    var async = false
    var launch = false
    val worker = Executors.newSingleThreadExecutor()
    var policyAsks = false

    init {
        db.execSQL("CREATE TABLE IF NOT EXISTS alerts (id TEXT PRIMARY KEY, symbol TEXT NOT NULL)")
    }

    override fun confirmationIntent(request: CetpProviderRequest, resolutionId: String): PendingIntent =
        PendingIntent.getActivity(RuntimeEnvironment.getApplication(), 0,
            Intent("com.example.app.CONFIRM").putExtra("resolution_id", resolutionId), PendingIntent.FLAG_IMMUTABLE)

    override fun confirmByPolicy(request: CetpProviderRequest) = if (policyAsks) confirmWithUser(request) else null

    override fun createAlert(input: CreateAlertInput, request: CetpProviderRequest): AlertToolProviderReply<CreateAlertOutput> {
        if (launch) return AlertToolProviderReply.Raw(store.operations.launch(request, worker) { _ ->
            {
                db.execSQL("INSERT INTO alerts (id, symbol) VALUES ('launched', ?)", arrayOf<Any>(input.symbol))
                CetpProviderResult.Inline(Json.parseToJsonElement("""{"alert_id":"launched"}"""))
            }
        })
        if (async) return AlertToolProviderReply.Raw(store.operations.accept(request))
        val n = runs.incrementAndGet()
        if (slow > 0) Thread.sleep(slow)
        db.execSQL("INSERT INTO alerts (id, symbol) VALUES (?, ?)", arrayOf<Any>("a_$n", input.symbol))
        afterWrite?.invoke()
        failAfterWrite?.let { throw it }
        return AlertToolProviderReply.Done(CreateAlertOutput(alertId = "a_$n"))
    }

    override fun deleteAlert(input: DeleteAlertInput, request: CetpProviderRequest): AlertToolProviderReply<DeleteAlertOutput> {
        runs.incrementAndGet()
        db.execSQL("DELETE FROM alerts WHERE id = ?", arrayOf<Any>(input.alertId))
        failAfterWrite?.let { throw it }
        return AlertToolProviderReply.Done(DeleteAlertOutput(alertId = input.alertId, deleted = true))
    }

    override fun listAlerts(input: ListAlertsInput, request: CetpProviderRequest): AlertToolProviderReply<ListAlertsOutput> =
        AlertToolProviderReply.Done(ListAlertsOutput(alerts = emptyList(), nextPageToken = null))

    override fun updateAlert(input: UpdateAlertInput, request: CetpProviderRequest): AlertToolProviderReply<UpdateAlertOutput> {
        runs.incrementAndGet()
        db.execSQL("UPDATE alerts SET symbol = 'changed'")
        val retry = input.alertId == "busy"
        return AlertToolProviderReply.Raw(CetpProviderResult.Failure(errorCode = "CONFLICT", message = "alert is locked", retryable = retry))
    }

    fun request(tool: String, args: String, id: String, who: CetpCallerIdentity = owner, token: String? = null) = CetpProviderRequest(
        caller = who, requestId = id, deadlineAtMillis = clock.get() + 30_000L,
        tool = providerTools.first { it.name == tool }, args = Json.parseToJsonElement(args).jsonObject,
        rawArgsJson = args, resumeToken = token,
    )

    /**
     * Answer is what the SDK would answer: the access decision when it is
     * not Granted, else the result.
     */
    class Answer(val decision: CetpAccessDecision, val result: CetpProviderResult?) {
        val code: String?
            get() = (decision as? CetpAccessDecision.Denied)?.errorCode ?: (result as? CetpProviderResult.Failure)?.errorCode
        val token: String? get() = (decision as? CetpAccessDecision.ActionRequired)?.resumeToken
    }

    /** call runs steps 4 and 5 of the SDK's execute_tool. */
    fun call(r: CetpProviderRequest): Answer {
        val d = authorize(r)
        if (d !is CetpAccessDecision.Granted) return Answer(d, null)
        val result = if (r.tool.annotations.hasSideEffects) {
            mutationExecutor.execute(store.contextOf(r)) { executeTool(r) }
        } else {
            executeTool(r)
        }
        return Answer(d, result)
    }

    fun rows(): Long = db.rawQuery("SELECT count(*) FROM alerts", null).use { it.moveToFirst(); it.getLong(0) }
}

val owner = CetpCallerIdentity(10077, listOf(CetpCallerPackage("com.example.agent", setOf("cd".repeat(32)))))
val stranger = CetpCallerIdentity(10078, listOf(CetpCallerPackage("com.example.other", setOf("ef".repeat(32)))))
const val CREATE = """{"symbol":"600519.SH","price":1688.5}"""

/** newShop is a Shop on a fresh in-memory database, its owner granted every scope. */
fun newShop(clock: AtomicLong = AtomicLong(1_700_000_000_000L)): Shop {
    val s = Shop(SQLiteDatabase.create(null), clock)
    for (who in listOf(owner, stranger)) s.store.grants.grant(who, listOf("alerts.read", "alerts.write"), clock.get() + 365 * DAY)
    return s
}

fun inline(a: Shop.Answer): String? = (a.result as? CetpProviderResult.Inline)?.value?.toString()

@RunWith(RobolectricTestRunner::class)
@Config(sdk = [35])
@Suppress("DEPRECATION") // SQLiteMode.LEGACY: the SQLite bundled with Robolectric, no native-runtime download
@SQLiteMode(SQLiteMode.Mode.LEGACY)
class DurableTest {
    @Test
    fun executor() {
        val c = Checks()
        val s = newShop()
        val first = s.call(s.request("create_alert", CREATE, "r-1"))
        val again = s.call(s.request("create_alert", CREATE, "r-1"))
        c.check("same request ID twice: one effect", s.runs.get() == 1 && s.rows() == 1L, "runs ${s.runs} rows ${s.rows()}")
        c.check("same request ID twice: the same result", inline(first) == """{"alert_id":"a_1"}""" && inline(again) == inline(first),
            "${inline(first)} ${inline(again)}")
        c.check("same ID, other args: INVALID_REQUEST", s.call(s.request("create_alert", """{"symbol":"X","price":1}""", "r-1")).code == "INVALID_REQUEST")
        c.check("same ID, whitespace in the args: INVALID_REQUEST", s.call(s.request("create_alert", CREATE.replace(",", ", "), "r-1")).code == "INVALID_REQUEST")
        c.check("same ID, other tool: INVALID_REQUEST", s.call(s.request("delete_alert", """{"alert_id":"a_1"}""", "r-1")).code == "INVALID_REQUEST")
        c.check("same ID from another caller is another request", inline(s.call(s.request("create_alert", CREATE, "r-1", stranger))) == """{"alert_id":"a_2"}""")
        c.check("no effect for the rejected calls", s.runs.get() == 2 && s.rows() == 2L, "runs ${s.runs} rows ${s.rows()}")

        s.failAfterWrite = IllegalStateException("process dies mid-transaction")
        val thrown = runCatching { s.call(s.request("create_alert", CREATE, "r-2")) }.exceptionOrNull()
        c.check("an exception inside the transaction propagates", thrown?.message == "process dies mid-transaction", thrown.toString())
        c.check("an exception inside the transaction leaves no partial effect", s.rows() == 2L, "rows ${s.rows()}")
        s.failAfterWrite = null
        val retried = s.call(s.request("create_alert", CREATE, "r-2"))
        c.check("the retry runs once and commits", inline(retried) == """{"alert_id":"a_4"}""" && s.rows() == 3L, "${inline(retried)} rows ${s.rows()}")

        val conflict = s.call(s.request("update_alert", """{"alert_id":"a_1","paused":true}""", "r-3"))
        val conflictAgain = s.call(s.request("update_alert", """{"alert_id":"a_1","paused":true}""", "r-3"))
        c.check("a terminal failure is stored and served again", conflict.code == "CONFLICT" && conflictAgain.code == "CONFLICT" && s.runs.get() == 5,
            "${conflict.code} ${conflictAgain.code} runs ${s.runs}")
        c.check("a failure's business change rolls back", s.db.rawQuery("SELECT count(*) FROM alerts WHERE symbol = 'changed'", null)
            .use { it.moveToFirst(); it.getLong(0) } == 0L)
        s.call(s.request("update_alert", """{"alert_id":"busy","paused":true}""", "r-4"))
        s.call(s.request("update_alert", """{"alert_id":"busy","paused":true}""", "r-4"))
        c.check("a retryable failure is not stored: the retry runs", s.runs.get() == 7, "runs ${s.runs}")

        val late = s.request("create_alert", CREATE, "r-5").copy(deadlineAtMillis = s.clock.get() - 1)
        val lateAnswer = s.store.mutations.execute(s.store.contextOf(late)) { s.executeExternally(late) }
        c.check("a passed deadline is DEADLINE_EXCEEDED before any effect", (lateAnswer as? CetpProviderResult.Failure)?.errorCode == "DEADLINE_EXCEEDED" &&
            s.runs.get() == 7, lateAnswer.toString())
        c.check("and stores nothing", inline(s.call(s.request("create_alert", CREATE, "r-5"))) == """{"alert_id":"a_8"}""")

        s.clock.addAndGet(DAY - 1)
        c.check("a stored result is served for the whole window", inline(s.call(s.request("create_alert", CREATE, "r-1"))) == """{"alert_id":"a_1"}""")
        s.clock.addAndGet(1)
        c.check("after the window: RESULT_EXPIRED", s.call(s.request("create_alert", CREATE, "r-1")).code == "RESULT_EXPIRED")
        c.check("after the window, other content: INVALID_REQUEST", s.call(s.request("create_alert", """{"symbol":"X","price":1}""", "r-1")).code == "INVALID_REQUEST")
        s.store.purge()
        c.check("after purge the tombstone still answers RESULT_EXPIRED", s.call(s.request("create_alert", CREATE, "r-1")).code == "RESULT_EXPIRED")
        c.check("an expired request ID never runs again", s.runs.get() == 8, "runs ${s.runs}")
        s.db.close()
        c.done()
    }

    @Test
    fun concurrentIdenticalRequests() {
        val c = Checks()
        val s = newShop()
        // A second store on the same database, as a second process would
        // have: its in-process lock is its own, so only the database's
        // transaction and primary key keep its calls from running twice.
        val other = AlertToolProviderStore(s.db, clock = { s.clock.get() })
        s.slow = 20
        val pool = Executors.newFixedThreadPool(32)
        val start = CountDownLatch(1)
        val request = s.request("create_alert", CREATE, "r-concurrent")
        val answers = (0 until 32).map { i ->
            pool.submit<CetpProviderResult> {
                start.await()
                val executor = if (i % 2 == 0) s.store.mutations else other.mutations
                executor.execute(s.store.contextOf(request)) { s.executeExternally(request) }
            }
        }
        start.countDown()
        val results = answers.map { it.get(60, TimeUnit.SECONDS) }
        pool.shutdown()
        c.check("32 concurrent identical requests: one execution", s.runs.get() == 1 && s.rows() == 1L, "runs ${s.runs} rows ${s.rows()}")
        c.check("all 32 get the same result", results.all { (it as? CetpProviderResult.Inline)?.value.toString() == """{"alert_id":"a_1"}""" },
            results.toSet().toString())
        s.db.close()
        c.done()
    }

    @Test
    fun twoConnections() {
        val c = Checks()
        // Two Providers on two connections to one database file, as two
        // processes of the app would be: only SQLite's locking and the
        // primary key keep the request from running twice.
        // sqlite4java logs every SQLITE_BUSY it reports; the store retries them.
        java.util.logging.Logger.getLogger("com.almworks.sqlite4java").level = java.util.logging.Level.OFF
        val file = File.createTempFile("cetp", ".db")
        file.delete()
        val clock = AtomicLong(1_700_000_000_000L)
        // Write-ahead logging, as an app's SQLiteOpenHelper would enable it:
        // readers of one connection do not wait for the other's writer.
        val open = { SQLiteDatabase.openOrCreateDatabase(file, null).also { it.enableWriteAheadLogging() } }
        val shops = listOf(Shop(open(), clock), Shop(open(), clock))
        shops[0].store.grants.grant(owner, listOf("alerts.write"), clock.get() + DAY)
        for (s in shops) s.slow = 20
        val pool = Executors.newFixedThreadPool(8)
        val start = CountDownLatch(1)
        val answers = (0 until 8).map { i ->
            pool.submit<String?> {
                start.await()
                val s = shops[i % 2]
                inline(s.call(s.request("create_alert", CREATE, "r-two")))
            }
        }
        start.countDown()
        val results = answers.map { runCatching { it.get(60, TimeUnit.SECONDS) }.getOrElse { e -> e.toString() } }
        pool.shutdown()
        val runs = shops.sumOf { it.runs.get() }
        c.check("two connections, 8 identical requests: one execution", runs == 1 && shops[1].rows() == 1L, "runs $runs rows ${shops[1].rows()}")
        c.check("all get the same result", results.toSet().size == 1, results.toString())
        for (s in shops) s.db.close()
        file.delete()
        c.done()
    }

    @Test
    fun killedProcess() {
        val c = Checks()
        val dir = java.nio.file.Files.createTempDirectory("cetp-kill").toFile()
        val file = File(dir, "app.db")
        val marker = File(dir, "inside")
        // A second JVM runs the call and is killed with SIGKILL inside the
        // executor's transaction, after the app's row was written.
        val javaBin = ProcessHandle.current().info().command().orElse("java")
        val props = listOf("robolectric.offline", "robolectric.dependency.dir", "robolectric.logging.enabled")
            .mapNotNull { k -> System.getProperty(k)?.let { "-D$k=$it" } }
        val child = ProcessBuilder(listOf(javaBin, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC") + props +
            listOf("-Dcetp.kill.db=$file", "-Dcetp.kill.marker=$marker", "-cp", System.getProperty("java.class.path"),
                "org.junit.runner.JUnitCore", "harness.KilledChild"))
            .redirectErrorStream(true).redirectOutput(File(dir, "child.log")).start()
        val deadline = System.currentTimeMillis() + 120_000L
        while (!marker.exists() && child.isAlive && System.currentTimeMillis() < deadline) Thread.sleep(20)
        c.check("the child reached the inside of the transaction", marker.exists(), File(dir, "child.log").readText().take(2000))
        child.destroyForcibly()
        child.waitFor(30, TimeUnit.SECONDS)
        val clock = AtomicLong(1_700_000_000_000L)
        val s = Shop(SQLiteDatabase.openOrCreateDatabase(file, null).also { it.enableWriteAheadLogging() }, clock)
        s.store.grants.grant(owner, listOf("alerts.write"), clock.get() + DAY)
        c.check("SIGKILL inside the transaction: no partial effect", s.rows() == 0L, "rows ${s.rows()}")
        c.check("and no deduplication record", s.db.rawQuery("SELECT count(*) FROM cetp_mutation", null).use { it.moveToFirst(); it.getLong(0) } == 0L)
        val retry = inline(s.call(s.request("create_alert", CREATE, "r-killed")))
        val again = inline(s.call(s.request("create_alert", CREATE, "r-killed")))
        c.check("the retry runs once and commits", retry == """{"alert_id":"a_1"}""" && again == retry && s.runs.get() == 1 && s.rows() == 1L,
            "$retry $again runs ${s.runs} rows ${s.rows()}")
        s.db.close()
        dir.deleteRecursively()
        c.done()
    }

    @Test
    fun resumeTokens() {
        val c = Checks()
        val s = newShop()
        val delete = """{"alert_id":"a_1"}"""
        s.call(s.request("create_alert", CREATE, "r-0"))
        val ask = s.call(s.request("delete_alert", delete, "r-1"))
        val required = ask.decision as? CetpAccessDecision.ActionRequired
        c.check("confirmation: always asks with a token and the app's PendingIntent", required != null &&
            required.errorCode == "USER_ACTION_REQUIRED" && required.resumeToken.length in 16..256, ask.decision.toString())
        c.check("nothing runs before the user decides", s.runs.get() == 1 && s.rows() == 1L)
        val token = ask.token ?: return c.done()
        val resolution = s.store.tokens.pending("nope")
        c.check("an unknown resolution shows nothing", resolution == null)
        val pendingCall = s.db.rawQuery("SELECT resolution_id FROM cetp_token", null).use { it.moveToFirst(); it.getString(0) }
            .let { s.store.tokens.pending(it) }
        c.check("the confirmation UI sees the exact call", pendingCall?.tool == "delete_alert" && pendingCall.rawArgsJson == delete &&
            pendingCall.callerUid == owner.uid, pendingCall.toString())
        val undecided = s.call(s.request("delete_alert", delete, "r-1", token = token))
        c.check("undecided: asked again, same token", (undecided.decision as? CetpAccessDecision.ActionRequired)?.resumeToken == token)

        c.check("altered args bytes (whitespace) are rejected",
            s.call(s.request("delete_alert", """{"alert_id": "a_1"}""", "r-1", token = token)).code == "INVALID_REQUEST")
        c.check("another caller is rejected", s.call(s.request("delete_alert", delete, "r-1", stranger, token)).code == "INVALID_REQUEST")
        c.check("another request ID is rejected", s.call(s.request("delete_alert", delete, "r-9", token = token)).code == "INVALID_REQUEST")
        c.check("an unknown token is rejected", s.call(s.request("delete_alert", delete, "r-1", token = "forged")).code == "INVALID_REQUEST")

        c.check("the UI records the approval once", s.store.tokens.decide(pendingCall!!.resolutionId, true) &&
            !s.store.tokens.decide(pendingCall.resolutionId, false))
        s.failAfterWrite = IllegalStateException("crash")
        runCatching { s.call(s.request("delete_alert", delete, "r-1", token = token)) }
        c.check("a crash inside the transaction keeps the row and the token", s.rows() == 1L)
        s.failAfterWrite = null
        val approved = s.call(s.request("delete_alert", delete, "r-1", token = token))
        c.check("approval: one execution", inline(approved) == """{"alert_id":"a_1","deleted":true}""" && s.rows() == 0L, inline(approved).toString())
        val replay = s.call(s.request("delete_alert", delete, "r-1", token = token))
        c.check("replay of the same call: the stored result, no second run", inline(replay) == inline(approved) && s.runs.get() == 3, "runs ${s.runs}")
        c.check("the token is used: a direct consume fails", !s.store.tokens.consumeIfIssued(s.request("delete_alert", delete, "r-1", token = token)))

        val ask2 = s.call(s.request("delete_alert", delete, "r-2"))
        s.clock.addAndGet(s.store.resumeTtlMillis)
        c.check("an expired token is rejected", s.call(s.request("delete_alert", delete, "r-2", token = ask2.token)).code == "INVALID_REQUEST")
        c.check("an expired resolution cannot be decided", !s.db.rawQuery("SELECT resolution_id FROM cetp_token WHERE used = 0", null)
            .use { it.moveToFirst(); s.store.tokens.decide(it.getString(0), true) })

        val ask3 = s.call(s.request("delete_alert", delete, "r-3"))
        val res3 = s.db.rawQuery("SELECT resolution_id FROM cetp_token WHERE request_id = 'r-3'", null).use { it.moveToFirst(); it.getString(0) }
        s.store.tokens.decide(res3, false)
        c.check("declined: USER_CANCELLED", s.call(s.request("delete_alert", delete, "r-3", token = ask3.token)).code == "USER_CANCELLED")
        c.check("declined token is single-use", s.call(s.request("delete_alert", delete, "r-3", token = ask3.token)).code == "INVALID_REQUEST")
        c.check("nothing ran for expired or declined calls", s.runs.get() == 3, "runs ${s.runs}")

        val quota = AlertToolProviderStore(s.db, maxPendingTokens = 2, clock = { s.clock.get() })
        val q = s.request("delete_alert", delete, "q-1", stranger)
        val issued = listOf(quota.tokens.issue(q), quota.tokens.issue(q.copy(requestId = "q-2")), quota.tokens.issue(q.copy(requestId = "q-3")))
        c.check("a caller's pending tokens are bounded", issued[0] != null && issued[1] != null && issued[2] == null)
        c.check("the bound is per caller", quota.tokens.issue(s.request("delete_alert", delete, "q-4")) != null)
        s.clock.addAndGet(s.store.resumeTtlMillis)
        c.check("expired tokens free the quota", quota.tokens.issue(q.copy(requestId = "q-5")) != null)

        s.policyAsks = true
        val policy = s.call(s.request("create_alert", CREATE, "r-4"))
        c.check("provider_policy may ask through the same flow", policy.token != null && s.runs.get() == 3)
        s.db.close()
        c.done()
    }

    @Test
    fun operations() {
        val c = Checks()
        val clock = AtomicLong(1_700_000_000_000L)
        val s = newShop(clock)
        s.async = true
        fun accept(id: String, who: CetpCallerIdentity = owner): String =
            (s.call(s.request("create_alert", CREATE, id, who)).result as CetpProviderResult.Accepted).operationId
        val commit = { n: String -> { ->
            s.db.execSQL("INSERT INTO alerts (id, symbol) VALUES (?, 'S')", arrayOf<Any>(n))
            CetpProviderResult.Inline(Json.parseToJsonElement("""{"alert_id":"$n"}"""))
        } }

        val op1 = accept("op-1")
        val same = (s.call(s.request("create_alert", CREATE, "op-1")).result as? CetpProviderResult.Accepted)?.operationId
        c.check("a duplicate gets the same operation", same == op1, "$same $op1")
        c.check("accepted is queued", s.store.operations.get(owner, "op-1", op1)?.state == OperationState.QUEUED)
        c.check("another caller cannot read it", s.store.operations.get(stranger, "op-1", op1) == null)
        c.check("another request ID cannot read it", s.store.operations.get(owner, "op-2", op1) == null)
        s.store.operations.run(op1) { scope -> scope.progress(1, 2, "half"); commit("b_1") }
        val done = s.store.operations.get(owner, "op-1", op1)
        c.check("run commits: succeeded with the result", done?.state == OperationState.SUCCEEDED &&
            (done.result as? CetpProviderResult.Inline)?.value?.toString() == """{"alert_id":"b_1"}""" && s.rows() == 1L, done.toString())
        val late = s.store.operations.cancel(owner, "op-1", op1)
        c.check("cancel after commit: reported as succeeded, never cancelled", late?.state == OperationState.SUCCEEDED, late.toString())
        c.check("still succeeded afterwards", s.getOperationState(owner, "op-1", op1) == OperationState.SUCCEEDED)

        val op2 = accept("op-2")
        val answered = s.store.operations.cancel(owner, "op-2", op2)
        c.check("cancel of a queued operation: cancellation_requested", answered?.state == OperationState.CANCELLATION_REQUESTED)
        s.store.operations.run(op2) { commit("b_2") }
        c.check("a cancelled queued operation never runs", s.getOperationState(owner, "op-2", op2) == OperationState.CANCELLED && s.rows() == 1L)

        val op3 = accept("op-3")
        val inWork = CountDownLatch(1)
        val proceed = CountDownLatch(1)
        val runner = Thread {
            s.store.operations.run(op3) { scope ->
                scope.progress(3, 10, "syncing")
                inWork.countDown()
                proceed.await(30, TimeUnit.SECONDS)
                commit("b_3")
            }
        }
        runner.start()
        inWork.await(30, TimeUnit.SECONDS)
        val running = s.store.operations.get(owner, "op-3", op3)
        c.check("running, with progress", running?.state == OperationState.RUNNING && running.progressCurrent == 3L &&
            running.progressTotal == 10L && running.progressMessage == "syncing", running.toString())
        c.check("cancel while running: cancellation_requested", s.store.operations.cancel(owner, "op-3", op3)?.state == OperationState.CANCELLATION_REQUESTED)
        proceed.countDown()
        runner.join(30_000)
        c.check("cancelled before commit: cancelled, no effect", s.getOperationState(owner, "op-3", op3) == OperationState.CANCELLED && s.rows() == 1L)

        val op4 = accept("op-4")
        runCatching { s.store.operations.run(op4) { throw OutOfMemoryError("the process dies") } }
        c.check("a dead process leaves it running", s.getOperationState(owner, "op-4", op4) == OperationState.RUNNING)
        val restarted = AlertToolProviderStore(s.db, clock = { clock.get() })
        val left = restarted.recover()
        c.check("recovery finds the unfinished operation", left.map { it.operationId } == listOf(op4) &&
            left[0].tool == "create_alert" && left[0].rawArgsJson == CREATE && left[0].callerUid == owner.uid, left.map { it.operationId }.toString())
        restarted.operations.run(op4) { commit("b_4") }
        c.check("recovered and run once", restarted.operations.get(owner, "op-4", op4)?.state == OperationState.SUCCEEDED && s.rows() == 2L)

        val op5 = accept("op-5")
        s.store.operations.run(op5) { { CetpProviderResult.Failure(errorCode = "CONFLICT", message = "symbol halted") } }
        val failed = s.store.operations.get(owner, "op-5", op5)
        c.check("a failed commit: failed with its error", failed?.state == OperationState.FAILED && failed.error?.errorCode == "CONFLICT", failed.toString())
        c.check("cancel of a failed operation is not cancelled", s.store.operations.cancel(owner, "op-5", op5)?.state == OperationState.FAILED)

        s.launch = true
        val op6 = accept("op-6")
        var launched: OperationState? = null
        for (i in 0 until 300) {
            launched = s.getOperationState(owner, "op-6", op6)
            if (launched == OperationState.SUCCEEDED) break
            Thread.sleep(10)
        }
        c.check("launch runs the operation on the worker once the call committed", launched == OperationState.SUCCEEDED &&
            s.db.rawQuery("SELECT count(*) FROM alerts WHERE id = 'launched'", null).use { it.moveToFirst(); it.getLong(0) } == 1L, launched.toString())
        s.worker.shutdown()

        clock.addAndGet(DAY)
        c.check("past the window: RESULT_EXPIRED (null)", s.store.operations.get(owner, "op-1", op1) == null)
        s.db.close()
        c.done()
    }

    @Test
    fun grants() {
        val c = Checks()
        val clock = AtomicLong(1_700_000_000_000L)
        val s = Shop(SQLiteDatabase.create(null), clock)
        val g = s.store.grants
        c.check("no grant: PERMISSION_DENIED", s.call(s.request("list_alerts", "{}", "g-1")).code == "PERMISSION_DENIED")
        g.grant(owner, listOf("alerts.read"), clock.get() + DAY)
        c.check("granted scope: the call runs", s.call(s.request("list_alerts", "{}", "g-2")).decision == CetpAccessDecision.Granted())
        c.check("another scope is not granted", !g.holds(owner, "alerts.write"))
        val resigned = CetpCallerIdentity(owner.uid, listOf(CetpCallerPackage("com.example.agent", setOf("00".repeat(32)))))
        c.check("a changed signing certificate needs a new grant", !g.holds(resigned, "alerts.read"))
        val shared = CetpCallerIdentity(owner.uid, owner.packages + CetpCallerPackage("com.example.sneaky", setOf("cd".repeat(32))))
        c.check("a package added to the shared UID needs a new grant", !g.holds(shared, "alerts.read"))
        c.check("another UID with the same package is not granted",
            !g.holds(CetpCallerIdentity(owner.uid + 1, owner.packages), "alerts.read"))
        clock.addAndGet(DAY)
        c.check("an expired grant is not held", !g.holds(owner, "alerts.read"))
        g.grant(owner, listOf("alerts.read", "alerts.write"), clock.get() + DAY)
        g.revoke(owner.uid, listOf("alerts.write"))
        c.check("revoke removes one scope", g.holds(owner, "alerts.read") && !g.holds(owner, "alerts.write"))
        s.db.close()
        c.done()
    }
}

/** executeExternally runs the protected executeTool, as the SDK does inside the executor. */
fun Shop.executeExternally(r: CetpProviderRequest): CetpProviderResult =
    hook(this, "executeTool", CetpProviderRequest::class.java)(arrayOf(r)) as CetpProviderResult

/** getOperationState is the state get_operation reports. */
fun Shop.getOperationState(who: CetpCallerIdentity, requestId: String, id: String): OperationState? =
    store.operations.get(who, requestId, id)?.state

/** recover is the recovery a restarted Provider runs. */
fun AlertToolProviderStore.recover(): List<AlertToolProviderStore.StoredOperation> = operations.recover()

/**
 * KilledChild is the JVM that DurableTest.killedProcess kills: it runs a
 * create_alert call on the database file it is given and, inside the
 * executor's transaction after the app's row was written, creates the
 * marker file and waits to be killed.
 */
@RunWith(RobolectricTestRunner::class)
@Config(sdk = [35])
@Suppress("DEPRECATION") // SQLiteMode.LEGACY, as DurableTest
@SQLiteMode(SQLiteMode.Mode.LEGACY)
class KilledChild {
    @Test
    fun runUntilKilled() {
        val clock = AtomicLong(1_700_000_000_000L)
        val db = SQLiteDatabase.openOrCreateDatabase(File(System.getProperty("cetp.kill.db")), null)
        db.enableWriteAheadLogging()
        val s = Shop(db, clock)
        s.store.grants.grant(owner, listOf("alerts.write"), clock.get() + DAY)
        s.afterWrite = {
            File(System.getProperty("cetp.kill.marker")).createNewFile()
            Thread.sleep(120_000L)
        }
        s.call(s.request("create_alert", CREATE, "r-killed"))
        error("the child was not killed")
    }
}
