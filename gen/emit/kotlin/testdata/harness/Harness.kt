// Harness runs on the JVM against the generated Kotlin and the functional
// stand-ins of sdkstubs/: the round-trip cases of roundtrip.txt (compiled
// into RoundTrips.kt by the Go test) and the behaviour of a generated base
// class (dispatch, INVALID_ARGS, scope checks, confirmation, CETP v1).
// It prints one line per failure and ends with "N passed, N failed".
package harness

import android.os.Bundle
import com.example.app.cetp.AlertToolProviderBase
import com.example.app.cetp.AlertToolProviderConfirmation
import com.example.app.cetp.AlertToolProviderReply
import com.example.app.cetp.CreateAlert
import com.example.app.cetp.DeleteAlert
import com.example.app.cetp.ListAlerts
import com.example.app.cetp.UpdateAlert
import dev.clawseed.sdk.android.cetp.CetpAccessDecision
import dev.clawseed.sdk.android.cetp.CetpCallerIdentity
import dev.clawseed.sdk.android.cetp.CetpMutationExecutor
import dev.clawseed.sdk.android.cetp.CetpProviderRequest
import dev.clawseed.sdk.android.cetp.CetpProviderResult
import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.jsonArray
import kotlinx.serialization.json.jsonObject

var passed = 0
var failed = 0

fun check(name: String, ok: Boolean, detail: String = "") {
    if (ok) passed++ else {
        failed++
        println("FAIL $name $detail")
    }
}

/** roundTrip checks that json decodes and encodes back to an equal value. */
fun roundTrip(name: String, json: String, convert: (JsonElement) -> JsonElement) {
    val e = Json.parseToJsonElement(json)
    try {
        val back = convert(e)
        check(name, back == e, "got $back want $e")
    } catch (x: Exception) {
        check(name, false, x.toString())
    }
}

/** rejects checks that decoding json throws the generated InvalidArgs. */
fun rejects(name: String, json: String, convert: (JsonElement) -> JsonElement) {
    val e = Json.parseToJsonElement(json)
    try {
        val back = convert(e)
        check(name, false, "decoded to $back")
    } catch (x: IllegalArgumentException) {
        check(name, x.javaClass.simpleName == "InvalidArgs", x.toString())
    }
}

val caller = CetpCallerIdentity(10001, emptyList())

/** Alerts is a test Provider over the generated alerts base class. */
class Alerts : AlertToolProviderBase() {
    val granted = mutableSetOf<String>()
    var answer: AlertToolProviderConfirmation = AlertToolProviderConfirmation.Rejected()
    var calls = mutableListOf<String>()

    override val mutationExecutor = CetpMutationExecutor { _, mutation -> mutation() }
    override fun holdsScope(caller: CetpCallerIdentity, scope: String): Boolean = scope in granted
    override fun confirm(request: CetpProviderRequest): AlertToolProviderConfirmation = answer

    override fun createAlert(input: CreateAlert.Input, request: CetpProviderRequest): AlertToolProviderReply<CreateAlert.Output> {
        calls.add("create:" + input.symbol + "@" + input.price.toPlainString())
        return AlertToolProviderReply.Done(CreateAlert.Output(alertId = "a_1"))
    }

    override fun deleteAlert(input: DeleteAlert.Input, request: CetpProviderRequest): AlertToolProviderReply<DeleteAlert.Output> {
        calls.add("delete:" + input.alertId)
        return AlertToolProviderReply.Done(DeleteAlert.Output(alertId = input.alertId, deleted = true))
    }

    override fun listAlerts(input: ListAlerts.Input, request: CetpProviderRequest): AlertToolProviderReply<ListAlerts.Output> {
        calls.add("list")
        return AlertToolProviderReply.Done(ListAlerts.Output(alerts = emptyList(), nextPageToken = null))
    }

    override fun updateAlert(input: UpdateAlert.Input, request: CetpProviderRequest): AlertToolProviderReply<UpdateAlert.Output> =
        AlertToolProviderReply.Raw(CetpProviderResult.Failure(errorCode = "CONFLICT", message = "busy"))

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

fun providerChecks() {
    val p = Alerts()
    check("dispatch decodes and encodes", (p.exec("create_alert", """{"price":1688.50,"symbol":"S"}""") as? CetpProviderResult.Inline)?.value ==
        Json.parseToJsonElement("""{"alert_id":"a_1"}"""))
    check("typed input keeps the exact number", p.calls == listOf("create:S@1688.50"), p.calls.toString())
    check("missing property is INVALID_ARGS", failureCode(p.exec("create_alert", """{"symbol":"S"}""")) == "INVALID_ARGS")
    check("wrong type is INVALID_ARGS", failureCode(p.exec("create_alert", """{"price":true,"symbol":"S"}""")) == "INVALID_ARGS")
    val f = p.exec("list_alerts", """{"status":"nope"}""") as? CetpProviderResult.Failure
    check("INVALID_ARGS names the pointer", f?.details?.get("pointer").toString() == "\"/status\"", f.toString())
    check("raw results pass through", failureCode(p.exec("update_alert", """{"alert_id":"a"}""")) == "CONFLICT")
    check("handler not called on bad args", p.calls.size == 1, p.calls.toString())

    check("no scope is denied", (p.auth("list_alerts") as? CetpAccessDecision.Denied)?.errorCode == "PERMISSION_DENIED")
    p.granted.add("alerts.read")
    check("read scope grants list", p.auth("list_alerts") == CetpAccessDecision.Granted(providerConfirmed = false))
    val create = """{"price":1,"symbol":"S"}"""
    val delete = """{"alert_id":"a_1"}"""
    check("read scope does not grant create", (p.auth("create_alert", create) as? CetpAccessDecision.Denied)?.errorCode == "PERMISSION_DENIED")
    check("args are checked before scopes", (p.auth("create_alert", "{}") as? CetpAccessDecision.Denied)?.errorCode == "INVALID_ARGS")
    p.granted.add("alerts.write")
    check("provider_policy defaults to unconfirmed grant", p.auth("create_alert", create) == CetpAccessDecision.Granted(providerConfirmed = false))
    check("always + rejected is USER_CANCELLED", (p.auth("delete_alert", delete) as? CetpAccessDecision.Denied)?.errorCode == "USER_CANCELLED")
    check("bad args never reach confirmation", (p.auth("delete_alert", "{}") as? CetpAccessDecision.Denied)?.errorCode == "INVALID_ARGS")
    p.answer = AlertToolProviderConfirmation.Approved
    check("always + approved is provider-confirmed", p.auth("delete_alert", delete) == CetpAccessDecision.Granted(providerConfirmed = true))

    val q = Alerts()
    val list = q.v1("list_tools", null)
    val tools = Json.parseToJsonElement(list.getString("data") ?: "{}").jsonObject["tools"]?.jsonArray?.map { it.jsonObject["name"].toString() }
    check("v1 lists only read tools", tools == listOf("\"list_alerts\""), tools.toString())
    val denied = q.v1("execute_tool", bundle("tool_name" to "list_alerts", "args" to "{}"))
    check("v1 checks scopes", denied.getString("error_code") == "PERMISSION_DENIED", denied.getString("error_code").toString())
    q.granted.addAll(listOf("alerts.read", "alerts.write"))
    val ok = q.v1("execute_tool", bundle("tool_name" to "list_alerts", "args" to "{}"))
    check("v1 executes read tools", ok.getString("status") == "success" && q.calls == listOf("list"), ok.getString("error_code").toString())
    val write = q.v1("execute_tool", bundle("tool_name" to "create_alert", "args" to """{"price":1,"symbol":"S"}"""))
    check("v1 never reaches a write tool", write.getString("error_code") == "TOOL_NOT_FOUND" && q.calls == listOf("list"))
    val bad = q.v1("execute_tool", bundle("tool_name" to "list_alerts", "args" to """{"page_size":"x"}"""))
    check("v1 bad args are INVALID_ARGS", bad.getString("error_code") == "INVALID_ARGS")
    val notJson = q.v1("execute_tool", bundle("tool_name" to "list_alerts", "args" to "[1"))
    check("v1 malformed args are INVALID_ARGS", notJson.getString("error_code") == "INVALID_ARGS")
    check("v1 unknown method is TOOL_NOT_FOUND", q.v1("nope", null).getString("error_code") == "TOOL_NOT_FOUND")
    val info = Json.parseToJsonElement(q.v1("get_provider_info", null).getString("data") ?: "{}").jsonObject
    check("v1 provider info", info["provider_name"].toString() == "\"Example App\"", info.toString())
}

fun main() {
    roundTrips()
    providerChecks()
    println("$passed passed, $failed failed")
    if (failed > 0) System.exit(1)
}
