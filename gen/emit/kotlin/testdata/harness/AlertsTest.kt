// AlertsTest drives the generated base class of specs/alerts through its
// SDK hooks (authorize, executeTool, handleV1Call) with constructed
// requests, under Robolectric: the class is a real android.content
// ContentProvider, and Bundle and PendingIntent are Android's own.
package harness

import android.app.PendingIntent
import android.content.Intent
import android.database.sqlite.SQLiteDatabase
import android.os.Bundle
import com.example.app.cetp.AlertToolProviderBase
import com.example.app.cetp.AlertToolProviderConfirmation
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
import dev.clawseed.sdk.android.cetp.CetpMutationExecutor
import dev.clawseed.sdk.android.cetp.CetpProviderRequest
import dev.clawseed.sdk.android.cetp.CetpProviderResult
import kotlinx.serialization.json.Json
import kotlinx.serialization.json.jsonArray
import kotlinx.serialization.json.jsonObject
import kotlinx.serialization.json.jsonPrimitive
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.Robolectric
import org.robolectric.RobolectricTestRunner
import org.robolectric.RuntimeEnvironment
import org.robolectric.annotation.Config
import org.robolectric.annotation.SQLiteMode

val caller = CetpCallerIdentity(10001, listOf(CetpCallerPackage("com.example.agent", setOf("ab".repeat(32)))))

/** alertsDb is the one in-memory database of every Alerts, kept open. */
val alertsDb: SQLiteDatabase by lazy { SQLiteDatabase.create(null) }

/** Alerts is a test Provider over the generated alerts base class. */
class Alerts : AlertToolProviderBase() {
    val granted = mutableSetOf<String>()
    var answer: AlertToolProviderConfirmation = AlertToolProviderConfirmation.Rejected()
    val calls = mutableListOf<String>()
    val confirmed = mutableListOf<String>()
    var missingScopes: CetpAccessDecision? = null
    var listThrows: Exception? = null
    var createThrows: Exception? = null

    override val durableStore: AlertToolProviderStore by lazy { AlertToolProviderStore(alertsDb) }
    override val mutationExecutor = CetpMutationExecutor { _, mutation -> mutation() }
    override fun confirmationIntent(request: CetpProviderRequest, resolutionId: String): PendingIntent =
        PendingIntent.getActivity(RuntimeEnvironment.getApplication(), 0, Intent("com.example.app.CONFIRM"), PendingIntent.FLAG_IMMUTABLE)
    override fun holdsScope(caller: CetpCallerIdentity, scope: String): Boolean = scope in granted
    override fun confirm(request: CetpProviderRequest): AlertToolProviderConfirmation {
        confirmed.add(request.tool.name)
        return answer
    }

    override fun onMissingScopes(request: CetpProviderRequest, missing: List<String>): CetpAccessDecision =
        missingScopes ?: super.onMissingScopes(request, missing)

    override fun createAlert(input: CreateAlertInput, request: CetpProviderRequest): AlertToolProviderReply<CreateAlertOutput> {
        calls.add("create:" + input.symbol + "@" + input.price.toPlainString())
        createThrows?.let { throw it }
        return AlertToolProviderReply.Done(CreateAlertOutput(alertId = "a_1"))
    }

    override fun deleteAlert(input: DeleteAlertInput, request: CetpProviderRequest): AlertToolProviderReply<DeleteAlertOutput> {
        calls.add("delete:" + input.alertId)
        return AlertToolProviderReply.Done(DeleteAlertOutput(alertId = input.alertId, deleted = true))
    }

    override fun listAlerts(input: ListAlertsInput, request: CetpProviderRequest): AlertToolProviderReply<ListAlertsOutput> {
        calls.add("list")
        listThrows?.let { throw it }
        return AlertToolProviderReply.Done(ListAlertsOutput(alerts = emptyList(), nextPageToken = null))
    }

    var updateResult: CetpProviderResult = CetpProviderResult.Failure(errorCode = "CONFLICT", message = "busy")

    override fun updateAlert(input: UpdateAlertInput, request: CetpProviderRequest): AlertToolProviderReply<UpdateAlertOutput> {
        calls.add("update:" + input.alertId)
        return AlertToolProviderReply.Raw(updateResult)
    }

    fun request(tool: String, args: String): CetpProviderRequest = CetpProviderRequest(
        caller = caller, requestId = "00000000-0000-4000-8000-000000000000", deadlineAtMillis = Long.MAX_VALUE,
        tool = providerTools.first { it.name == tool }, args = Json.parseToJsonElement(args).jsonObject,
        rawArgsJson = args, resumeToken = null,
    )

    fun exec(tool: String, args: String): CetpProviderResult = executeTool(request(tool, args))
    fun auth(tool: String, args: String = "{}"): CetpAccessDecision = authorize(request(tool, args))
    fun v1(method: String, extras: Bundle?): Bundle = handleV1Call(method, null, extras, caller)
}

fun failureCode(r: CetpProviderResult): String? = (r as? CetpProviderResult.Failure)?.errorCode

fun bundle(vararg kv: Pair<String, String>): Bundle = Bundle().apply { kv.forEach { putString(it.first, it.second) } }

fun deniedCode(d: CetpAccessDecision): String? = (d as? CetpAccessDecision.Denied)?.errorCode

@RunWith(RobolectricTestRunner::class)
@Config(sdk = [35])
@Suppress("DEPRECATION") // SQLiteMode.LEGACY: see DurableTest
@SQLiteMode(SQLiteMode.Mode.LEGACY)
class AlertsTest {
    private val resolution: PendingIntent
        get() = PendingIntent.getActivity(RuntimeEnvironment.getApplication(), 0, Intent("com.example.app.CONFIRM"), PendingIntent.FLAG_IMMUTABLE)

    @Test
    fun dispatch() {
        val c = Checks()
        val p = Alerts()
        c.check("dispatch decodes and encodes", (p.exec("create_alert", """{"price":1688.50,"symbol":"S"}""") as? CetpProviderResult.Inline)?.value ==
            Json.parseToJsonElement("""{"alert_id":"a_1"}"""))
        c.check("typed input keeps the exact number", p.calls == listOf("create:S@1688.50"), p.calls.toString())
        c.check("missing property is INVALID_ARGS", failureCode(p.exec("create_alert", """{"symbol":"S"}""")) == "INVALID_ARGS")
        c.check("wrong type is INVALID_ARGS", failureCode(p.exec("create_alert", """{"price":true,"symbol":"S"}""")) == "INVALID_ARGS")
        val f = p.exec("list_alerts", """{"status":"nope"}""") as? CetpProviderResult.Failure
        val violation = f?.details?.get("violations")?.jsonArray?.firstOrNull()?.jsonObject
        c.check("INVALID_ARGS names the pointer and the keyword", violation?.get("instance")?.jsonPrimitive?.content == "/status" &&
            violation["keyword"]?.jsonPrimitive?.content == "/properties/status/enum", f.toString())
        c.check("a schema keyword the type does not check is INVALID_ARGS", failureCode(p.exec("update_alert", """{"alert_id":"a"}""")) == "INVALID_ARGS")
        c.check("a bound the type does not check is INVALID_ARGS", failureCode(p.exec("create_alert", """{"price":-1,"symbol":"S"}""")) == "INVALID_ARGS")
        c.check("handler not called on bad args", p.calls.size == 1, p.calls.toString())
        c.check("raw results pass through", failureCode(p.exec("update_alert", """{"alert_id":"a","paused":true}""")) == "CONFLICT")
        p.updateResult = CetpProviderResult.Inline(Json.parseToJsonElement("""{"alert_id":"a","status":"gone","updated_at":"2026-01-01T00:00:00Z"}"""))
        val invalid = p.exec("update_alert", """{"alert_id":"a","paused":true}""") as? CetpProviderResult.Failure
        c.check("a result failing the output schema is INTERNAL_ERROR", invalid?.errorCode == "INTERNAL_ERROR" &&
            invalid.message == "Provider produced an invalid result" && invalid.details == null, invalid.toString())
        p.updateResult = CetpProviderResult.Inline(Json.parseToJsonElement("""{"alert_id":"a","status":"paused","updated_at":"2026-01-01T00:00:00Z"}"""))
        c.check("a result within the output schema passes", p.exec("update_alert", """{"alert_id":"a","paused":true}""") == p.updateResult)

        p.listThrows = IllegalStateException("database at /data/secret is locked")
        val boom = p.exec("list_alerts", "{}") as? CetpProviderResult.Failure
        c.check("a thrown exception is INTERNAL_ERROR", boom?.errorCode == "INTERNAL_ERROR", boom.toString())
        p.createThrows = IllegalStateException("disk full")
        val escaped = runCatching { p.exec("create_alert", """{"price":1,"symbol":"S"}""") }.exceptionOrNull()
        c.check("a state-changing method's exception propagates to the mutationExecutor", escaped?.message == "disk full", escaped.toString())
        c.check("INTERNAL_ERROR carries no exception text", boom != null && !boom.toString().contains("secret") &&
            !boom.toString().contains("Exception") && !boom.toString().contains("at "), boom.toString())
        c.done()
    }

    @Test
    fun authorization() {
        val c = Checks()
        val p = Alerts()
        c.check("no scope is denied", deniedCode(p.auth("list_alerts")) == "PERMISSION_DENIED")
        p.granted.add("alerts.read")
        c.check("read scope grants list", p.auth("list_alerts") == CetpAccessDecision.Granted(providerConfirmed = false))
        val create = """{"price":1,"symbol":"S"}"""
        val delete = """{"alert_id":"a_1"}"""
        c.check("read scope does not grant create", deniedCode(p.auth("create_alert", create)) == "PERMISSION_DENIED")
        val auth = CetpAccessDecision.ActionRequired(resolution = resolution, resumeToken = "grant-1", message = "Grant alerts.write", errorCode = "AUTH_REQUIRED")
        p.missingScopes = auth
        c.check("missing scopes go to onMissingScopes", p.auth("create_alert", create) == auth)
        p.missingScopes = null
        c.check("args are checked before scopes", deniedCode(p.auth("create_alert", "{}")) == "INVALID_ARGS")
        val bound = p.auth("create_alert", """{"price":0,"symbol":"S"}""") as? CetpAccessDecision.Denied
        c.check("schema keywords are checked before scopes", bound?.errorCode == "INVALID_ARGS" &&
            bound.message == "args do not match the input schema: /price: not greater than the exclusive minimum 0", bound.toString())
        p.granted.add("alerts.write")
        c.check("provider_policy defaults to unconfirmed grant", p.auth("create_alert", create) == CetpAccessDecision.Granted(providerConfirmed = false))
        c.check("never and provider_policy tools do not ask confirm", p.confirmed.isEmpty(), p.confirmed.toString())
        c.check("always + rejected is USER_CANCELLED", deniedCode(p.auth("delete_alert", delete)) == "USER_CANCELLED")
        c.check("always asks confirm", p.confirmed == listOf("delete_alert"), p.confirmed.toString())
        c.check("bad args never reach confirmation", deniedCode(p.auth("delete_alert", "{}")) == "INVALID_ARGS" && p.confirmed.size == 1)
        val pi = resolution
        p.answer = AlertToolProviderConfirmation.Required(resolution = pi, resumeToken = "tok-1", message = "Confirm deletion")
        val required = p.auth("delete_alert", delete) as? CetpAccessDecision.ActionRequired
        c.check("always + required is USER_ACTION_REQUIRED with the app's PendingIntent", required?.errorCode == "USER_ACTION_REQUIRED" &&
            required.resolution === pi && required.resumeToken == "tok-1", required.toString())
        p.answer = AlertToolProviderConfirmation.Approved
        c.check("always + approved is provider-confirmed", p.auth("delete_alert", delete) == CetpAccessDecision.Granted(providerConfirmed = true))
        c.check("the method runs only through executeTool", p.calls.isEmpty(), p.calls.toString())
        c.done()
    }

    @Test
    fun cetpV1() {
        val c = Checks()
        val q = Alerts()
        val list = q.v1("list_tools", null)
        val tools = Json.parseToJsonElement(list.getString("data") ?: "{}").jsonObject["tools"]?.jsonArray?.map { it.jsonObject["name"]?.jsonPrimitive?.content }
        c.check("v1 lists only read tools", tools == listOf("list_alerts"), tools.toString())
        val denied = q.v1("execute_tool", bundle("tool_name" to "list_alerts", "args" to "{}"))
        c.check("v1 checks scopes", denied.getString("error_code") == "PERMISSION_DENIED", denied.getString("error_code").toString())
        q.granted.addAll(listOf("alerts.read", "alerts.write"))
        val ok = q.v1("execute_tool", bundle("tool_name" to "list_alerts", "args" to "{}"))
        c.check("v1 executes read tools", ok.getString("status") == "success" && q.calls == listOf("list"), ok.getString("error_code").toString())
        c.check("v1 bundles carry no protocol_version", !ok.containsKey("protocol_version"))
        val write = q.v1("execute_tool", bundle("tool_name" to "create_alert", "args" to """{"price":1,"symbol":"S"}"""))
        c.check("v1 never reaches a write tool", write.getString("error_code") == "TOOL_NOT_FOUND" && q.calls == listOf("list"))
        val bad = q.v1("execute_tool", bundle("tool_name" to "list_alerts", "args" to """{"page_size":"x"}"""))
        c.check("v1 bad args are INVALID_ARGS", bad.getString("error_code") == "INVALID_ARGS")
        val notJson = q.v1("execute_tool", bundle("tool_name" to "list_alerts", "args" to "[1"))
        c.check("v1 malformed args are INVALID_ARGS", notJson.getString("error_code") == "INVALID_ARGS")
        c.check("v1 unknown method is TOOL_NOT_FOUND", q.v1("nope", null).getString("error_code") == "TOOL_NOT_FOUND")
        val info = Json.parseToJsonElement(q.v1("get_provider_info", null).getString("data") ?: "{}").jsonObject
        c.check("v1 provider info", info["provider_name"]?.jsonPrimitive?.content == "Example App", info.toString())
        val routed = Robolectric.setupContentProvider(Alerts::class.java).call("list_tools", null, null)
        c.check("call() without protocol_version reaches handleV1Call", routed?.getString("status") == "success", routed.toString())
        q.listThrows = RuntimeException("boom")
        val thrown = q.v1("execute_tool", bundle("tool_name" to "list_alerts", "args" to "{}"))
        c.check("v1 thrown exception is INTERNAL_ERROR", thrown.getString("error_code") == "INTERNAL_ERROR" &&
            thrown.getString("error_message")?.contains("boom") == false, thrown.getString("error_message").toString())
        c.done()
    }
}
