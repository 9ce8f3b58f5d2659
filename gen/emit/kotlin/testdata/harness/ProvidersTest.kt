// ProvidersTest checks every generated Provider (Fixtures.kt, written by
// jvm_test.go from the specs) under Robolectric: the manifest fragment of
// the manifest emitter, parsed, names classes that exist and are what the
// manifest says (a discovery Service, a CETP ContentProvider) with the
// spec's authority, permission and versions; the descriptor and the tool
// list carry the spec's id, scopes, annotations and schemas (parsed JSON
// equal to the spec's canonical schema); a CETP v1 caller of a dual-stack
// Provider sees and reaches only read tools.
package harness

import android.app.Service
import android.os.Bundle
import dev.clawseed.sdk.android.cetp.CetpCallerIdentity
import dev.clawseed.sdk.android.cetp.CetpProviderDescriptor
import dev.clawseed.sdk.android.cetp.CetpProviderRequest
import dev.clawseed.sdk.android.cetp.CetpProviderResult
import dev.clawseed.sdk.android.cetp.CetpProviderTool
import dev.clawseed.sdk.android.cetp.CetpV2ContentProvider
import java.io.ByteArrayInputStream
import javax.xml.parsers.DocumentBuilderFactory
import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.jsonArray
import kotlinx.serialization.json.jsonObject
import kotlinx.serialization.json.jsonPrimitive
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.RobolectricTestRunner
import org.robolectric.annotation.Config
import org.w3c.dom.Element

/** Fixture is what a spec says about one Provider. */
class Fixture(
    val slug: String,
    val providerId: String,
    val authority: String,
    val versions: List<Int>,
    val manifest: String,
    val tools: List<ToolFixture>,
)

/** ToolFixture is what a spec says about one tool; input and output are canonical JSON. */
class ToolFixture(
    val name: String,
    val effect: String,
    val confirmation: String,
    val scopes: List<String>,
    val input: String,
    val output: String,
)

const val ANDROID_NS = "http://schemas.android.com/apk/res/android"
const val ACCESS_TOOLS = "com.clawseed.permission.ACCESS_TOOLS"

/** Manifest is the parsed provider-side manifest fragment. */
class Manifest(xml: String) {
    private val doc = DocumentBuilderFactory.newInstance().apply { isNamespaceAware = true }
        .newDocumentBuilder().parse(ByteArrayInputStream(xml.toByteArray(Charsets.UTF_8)))

    fun elements(tag: String): List<Element> {
        val nodes = doc.getElementsByTagName(tag)
        return (0 until nodes.length).map { nodes.item(it) as Element }
    }

    fun one(tag: String): Element = elements(tag).single()

    fun attr(e: Element, name: String): String = e.getAttributeNS(ANDROID_NS, name)

    /** meta returns the value of the service's meta-data name, or null. */
    fun meta(name: String): String? = elements("meta-data").firstOrNull { attr(it, "name") == name }?.let { attr(it, "value") }
}

/** hook calls a protected SDK hook of p by reflection. */
fun hook(p: CetpV2ContentProvider, name: String, vararg types: Class<*>): (Array<Any?>) -> Any? {
    val m = CetpV2ContentProvider::class.java.getDeclaredMethod(name, *types)
    m.isAccessible = true
    return { args -> try { m.invoke(p, *args) } catch (e: java.lang.reflect.InvocationTargetException) { throw e.cause ?: e } }
}

@RunWith(RobolectricTestRunner::class)
@Config(sdk = [35])
class ProvidersTest {
    private val caller = CetpCallerIdentity(10002, emptyList())

    @Test
    fun everyProvider() {
        val c = Checks()
        check(fixtures.isNotEmpty()) { "no fixtures" }
        for (f in fixtures) provider(c, f)
        c.done()
    }

    private fun provider(c: Checks, f: Fixture) {
        val n = f.slug
        val m = Manifest(f.manifest)
        c.check("$n: permission", m.attr(m.one("permission"), "name") == ACCESS_TOOLS &&
            m.attr(m.one("permission"), "protectionLevel") == "normal")
        val service = m.one("service")
        c.check("$n: service exported", m.attr(service, "exported") == "true")
        c.check("$n: discovery action", m.attr(m.one("action"), "name") == "com.clawseed.action.TOOL_PROVIDER")
        c.check("$n: meta-data authority", m.meta("com.clawseed.tools.authority") == f.authority, m.meta("com.clawseed.tools.authority").toString())
        val dual = 1 in f.versions
        c.check("$n: meta-data versions", m.meta("com.clawseed.tools.versions") == f.versions.joinToString(","), m.meta("com.clawseed.tools.versions").toString())
        val version = if (dual) "1" else f.versions.max().toString()
        c.check("$n: meta-data version", m.meta("com.clawseed.tools.version") == version, m.meta("com.clawseed.tools.version").toString())
        val prov = m.one("provider")
        c.check("$n: provider authority", m.attr(prov, "authorities") == f.authority, m.attr(prov, "authorities"))
        c.check("$n: provider permission", m.attr(prov, "permission") == ACCESS_TOOLS)
        c.check("$n: provider exported", m.attr(prov, "exported") == "true")

        val serviceClass = runCatching { Class.forName(m.attr(service, "name")) }.getOrNull()
        c.check("$n: the manifest's service class exists", serviceClass != null, m.attr(service, "name"))
        if (serviceClass != null) {
            c.check("$n: it is an android.app.Service", Service::class.java.isAssignableFrom(serviceClass))
            val s = serviceClass.getDeclaredConstructor().newInstance() as Service
            c.check("$n: the discovery service binds nothing", s.onBind(null) == null)
        }
        val providerClass = runCatching { Class.forName(m.attr(prov, "name")) }.getOrNull()
        c.check("$n: the manifest's provider class exists", providerClass != null, m.attr(prov, "name"))
        if (providerClass == null || !CetpV2ContentProvider::class.java.isAssignableFrom(providerClass)) {
            c.check("$n: the provider class is a CetpV2ContentProvider", false, providerClass.toString())
            return
        }
        val p = providerClass.getDeclaredConstructor().newInstance() as CetpV2ContentProvider
        val overridesV1 = generateSequence<Class<*>>(providerClass) { it.superclass }
            .takeWhile { it != CetpV2ContentProvider::class.java }
            .any { k -> k.declaredMethods.any { it.name == "handleV1Call" } }
        c.check("$n: handleV1Call is overridden exactly when the manifest says version 1", overridesV1 == dual)

        val descriptor = hook(p, "getProvider")(arrayOf()) as CetpProviderDescriptor
        c.check("$n: provider id", descriptor.providerId == f.providerId, descriptor.providerId)
        @Suppress("UNCHECKED_CAST")
        val tools = hook(p, "getProviderTools")(arrayOf()) as List<CetpProviderTool>
        c.check("$n: tool names", tools.map { it.name }.sorted() == f.tools.map { it.name }, tools.map { it.name }.toString())
        for (t in f.tools) {
            val g = tools.firstOrNull { it.name == t.name } ?: continue
            c.check("$n/${t.name}: input schema is the spec's", g.inputSchema == Json.parseToJsonElement(t.input), g.inputSchema.toString())
            c.check("$n/${t.name}: output schema is the spec's", g.outputSchema == Json.parseToJsonElement(t.output), g.outputSchema.toString())
            c.check("$n/${t.name}: scopes", g.scopes.sorted() == t.scopes.sorted(), g.scopes.toString())
            c.check("$n/${t.name}: effect", g.annotations.effect.wireValue == t.effect)
            c.check("$n/${t.name}: confirmation", g.annotations.confirmation.wireValue == t.confirmation)
        }

        val execute = hook(p, "executeTool", CetpProviderRequest::class.java)
        val ghost = CetpProviderTool(name = "no_such_tool", title = "x", description = "x", inputSchema = JsonObject(emptyMap()), outputSchema = JsonObject(emptyMap()))
        val r = execute(arrayOf(CetpProviderRequest(caller, "00000000-0000-4000-8000-000000000001", Long.MAX_VALUE, ghost, JsonObject(emptyMap()), "{}", null)))
        c.check("$n: an unknown tool is TOOL_NOT_FOUND", (r as? CetpProviderResult.Failure)?.errorCode == "TOOL_NOT_FOUND", r.toString())

        val v1 = hook(p, "handleV1Call", String::class.java, String::class.java, Bundle::class.java, CetpCallerIdentity::class.java)
        val listed = v1(arrayOf("list_tools", null, null, caller)) as Bundle
        if (!dual) {
            c.check("$n: a v2-only Provider refuses CETP v1", listed.getString("error_code") == "METHOD_NOT_FOUND", listed.toString())
            return
        }
        val readOnly = f.tools.filter { it.effect == "read" && it.confirmation != "always" }.map { it.name }
        val names = Json.parseToJsonElement(listed.getString("data") ?: "{}").jsonObject["tools"]?.jsonArray
            ?.map { it.jsonObject["name"]?.jsonPrimitive?.content }?.sortedBy { it }
        c.check("$n: v1 lists exactly the read tools", names == readOnly, names.toString())
        for (t in f.tools.filter { it.name !in readOnly }) {
            val extras = Bundle().apply {
                putString("tool_name", t.name)
                putString("args", "{}")
            }
            // The skeleton's hooks are TODO(): reaching holdsScope or the
            // typed method would throw instead of answering TOOL_NOT_FOUND.
            val out = runCatching { v1(arrayOf("execute_tool", null, extras, caller)) as Bundle }
            c.check("$n/${t.name}: v1 never reaches a state-changing or confirmed tool",
                out.getOrNull()?.getString("error_code") == "TOOL_NOT_FOUND", out.toString())
        }
    }
}
