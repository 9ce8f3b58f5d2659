// A minimal, functional stand-in for the part of kotlinx.serialization.json
// that the generated Kotlin uses, with the library's public names and
// signatures, so the generated code compiles against it unchanged and its
// JSON conversion can run on a plain JVM in tests. toString() writes JSON;
// Json.parseToJsonElement parses it. Not a full implementation.
@file:Suppress("unused", "FunctionName")

package kotlinx.serialization.json

/** JsonElement is any JSON value. */
sealed class JsonElement

/** JsonPrimitive is a string, number, boolean or null. */
sealed class JsonPrimitive : JsonElement() {
    abstract val isString: Boolean
    abstract val content: String
    override fun toString(): String = if (isString) quote(content) else content
}

internal class JsonLiteral(override val content: String, override val isString: Boolean) : JsonPrimitive() {
    override fun equals(other: Any?): Boolean =
        other is JsonLiteral && other.isString == isString && other.content == content
    override fun hashCode(): Int = 31 * isString.hashCode() + content.hashCode()
}

/** JsonNull is the JSON null. */
object JsonNull : JsonPrimitive() {
    override val isString: Boolean get() = false
    override val content: String get() = "null"
}

fun JsonPrimitive(value: Boolean?): JsonPrimitive = if (value == null) JsonNull else JsonLiteral(value.toString(), false)
fun JsonPrimitive(value: Number?): JsonPrimitive = if (value == null) JsonNull else JsonLiteral(value.toString(), false)
fun JsonPrimitive(value: String?): JsonPrimitive = if (value == null) JsonNull else JsonLiteral(value, true)

/** JsonObject is a JSON object; it keeps insertion order. */
class JsonObject(private val content: Map<String, JsonElement>) : JsonElement(), Map<String, JsonElement> by content {
    override fun equals(other: Any?): Boolean = content == other
    override fun hashCode(): Int = content.hashCode()
    override fun toString(): String =
        content.entries.joinToString(",", "{", "}") { (k, v) -> quote(k) + ":" + v.toString() }
}

/** JsonArray is a JSON array. */
class JsonArray(private val content: List<JsonElement>) : JsonElement(), List<JsonElement> by content {
    override fun equals(other: Any?): Boolean = content == other
    override fun hashCode(): Int = content.hashCode()
    override fun toString(): String = content.joinToString(",", "[", "]")
}

/** JsonObjectBuilder builds a JsonObject. */
class JsonObjectBuilder @PublishedApi internal constructor() {
    private val content = LinkedHashMap<String, JsonElement>()
    fun put(key: String, element: JsonElement): JsonElement? = content.put(key, element)
    @PublishedApi internal fun build(): JsonObject = JsonObject(content)
}

/** JsonArrayBuilder builds a JsonArray. */
class JsonArrayBuilder @PublishedApi internal constructor() {
    private val content = ArrayList<JsonElement>()
    fun add(element: JsonElement): Boolean = content.add(element)
    @PublishedApi internal fun build(): JsonArray = JsonArray(content)
}

inline fun buildJsonObject(builderAction: JsonObjectBuilder.() -> Unit): JsonObject {
    val b = JsonObjectBuilder()
    b.builderAction()
    return b.build()
}

inline fun buildJsonArray(builderAction: JsonArrayBuilder.() -> Unit): JsonArray {
    val b = JsonArrayBuilder()
    b.builderAction()
    return b.build()
}

fun JsonObjectBuilder.put(key: String, value: String?): JsonElement? = put(key, JsonPrimitive(value))
fun JsonObjectBuilder.put(key: String, value: Number?): JsonElement? = put(key, JsonPrimitive(value))
fun JsonObjectBuilder.put(key: String, value: Boolean?): JsonElement? = put(key, JsonPrimitive(value))

fun JsonObjectBuilder.putJsonObject(key: String, builderAction: JsonObjectBuilder.() -> Unit): JsonElement? =
    put(key, buildJsonObject(builderAction))

fun JsonObjectBuilder.putJsonArray(key: String, builderAction: JsonArrayBuilder.() -> Unit): JsonElement? =
    put(key, buildJsonArray(builderAction))

val JsonElement.jsonObject: JsonObject
    get() = this as? JsonObject ?: throw IllegalArgumentException("Element is not a JsonObject")
val JsonElement.jsonArray: JsonArray
    get() = this as? JsonArray ?: throw IllegalArgumentException("Element is not a JsonArray")
val JsonElement.jsonPrimitive: JsonPrimitive
    get() = this as? JsonPrimitive ?: throw IllegalArgumentException("Element is not a JsonPrimitive")

/** Json parses JSON text. */
open class Json internal constructor() {
    fun parseToJsonElement(string: String): JsonElement {
        val p = Parser(string)
        try {
            val e = p.value()
            p.end()
            return e
        } catch (x: IndexOutOfBoundsException) {
            p.fail("unexpected end")
        }
    }

    /** Default is the default Json instance. */
    companion object Default : Json()
}

internal fun quote(s: String): String {
    val b = StringBuilder("\"")
    for (c in s) {
        when {
            c == '"' -> b.append("\\\"")
            c == '\\' -> b.append("\\\\")
            c == '\n' -> b.append("\\n")
            c == '\r' -> b.append("\\r")
            c == '\t' -> b.append("\\t")
            c < ' ' -> b.append(String.format("\\u%04x", c.code))
            else -> b.append(c)
        }
    }
    return b.append('"').toString()
}

private class Parser(val s: String) {
    var i = 0

    fun fail(msg: String): Nothing = throw IllegalArgumentException("JSON at $i: $msg")

    fun ws() { while (i < s.length && s[i] in " \t\r\n") i++ }

    fun end() { ws(); if (i != s.length) fail("trailing data") }

    fun value(): JsonElement {
        ws()
        if (i >= s.length) fail("unexpected end")
        return when (s[i]) {
            '{' -> obj()
            '[' -> arr()
            '"' -> JsonLiteral(str(), true)
            't' -> word("true", JsonLiteral("true", false))
            'f' -> word("false", JsonLiteral("false", false))
            'n' -> word("null", JsonNull)
            else -> num()
        }
    }

    fun word(w: String, v: JsonElement): JsonElement {
        if (!s.startsWith(w, i)) fail("bad literal")
        i += w.length
        return v
    }

    fun num(): JsonElement {
        val start = i
        while (i < s.length && (s[i].isDigit() || s[i] in "+-.eE")) i++
        val t = s.substring(start, i)
        if (t.isEmpty() || t.toBigDecimalOrNull() == null) fail("bad number")
        return JsonLiteral(t, false)
    }

    fun str(): String {
        i++
        val b = StringBuilder()
        while (true) {
            if (i >= s.length) fail("unterminated string")
            val c = s[i++]
            when (c) {
                '"' -> return b.toString()
                '\\' -> {
                    val e = s[i++]
                    when (e) {
                        'n' -> b.append('\n'); 't' -> b.append('\t'); 'r' -> b.append('\r')
                        'b' -> b.append('\b'); 'f' -> b.append('\u000c')
                        'u' -> { b.append(s.substring(i, i + 4).toInt(16).toChar()); i += 4 }
                        else -> b.append(e)
                    }
                }
                else -> b.append(c)
            }
        }
    }

    fun obj(): JsonObject {
        i++
        val m = LinkedHashMap<String, JsonElement>()
        ws()
        if (s[i] == '}') { i++; return JsonObject(m) }
        while (true) {
            ws()
            if (s[i] != '"') fail("expected key")
            val k = str()
            ws()
            if (s[i++] != ':') fail("expected colon")
            m[k] = value()
            ws()
            when (s[i++]) { ',' -> continue; '}' -> return JsonObject(m); else -> fail("expected , or }") }
        }
    }

    fun arr(): JsonArray {
        i++
        val l = ArrayList<JsonElement>()
        ws()
        if (s[i] == ']') { i++; return JsonArray(l) }
        while (true) {
            l.add(value())
            ws()
            when (s[i++]) { ',' -> continue; ']' -> return JsonArray(l); else -> fail("expected , or ]") }
        }
    }
}
