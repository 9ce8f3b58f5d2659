// Checks collects the outcome of many small checks so that one JUnit test
// reports every failure at once, each with its name and what was seen.
package harness

import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonNull
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import org.junit.Assert.fail

class Checks {
    private val failures = mutableListOf<String>()
    var passed = 0
        private set

    /** check records a check named name, with detail shown when it fails. */
    fun check(name: String, ok: Boolean, detail: String = "") {
        if (ok) passed++ else failures.add("$name: $detail")
    }

    /** roundTrip checks that json decodes and encodes back to an equal value. */
    fun roundTrip(name: String, json: String, convert: (JsonElement) -> JsonElement) {
        val e = Json.parseToJsonElement(json)
        try {
            val back = convert(e)
            check(name, jsonEqual(back, e), "got $back want $e")
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

    /** done fails the calling JUnit test if any check failed. */
    fun done() {
        println("$passed checks passed, ${failures.size} failed")
        if (failures.isNotEmpty()) fail(failures.joinToString("\n", "${failures.size} checks failed:\n"))
    }
}

/**
 * jsonEqual compares JSON values as JSON does: members in any order, and
 * numbers by exact value (1.6885e3 equals 1688.50), where kotlinx's equals
 * compares a number's text.
 */
fun jsonEqual(a: JsonElement, b: JsonElement): Boolean = when {
    a is JsonObject && b is JsonObject -> a.keys == b.keys && a.all { (k, v) -> jsonEqual(v, b.getValue(k)) }
    a is JsonArray && b is JsonArray -> a.size == b.size && a.indices.all { jsonEqual(a[it], b[it]) }
    a is JsonPrimitive && b is JsonPrimitive && isNumber(a) && isNumber(b) ->
        a.content.toBigDecimal().compareTo(b.content.toBigDecimal()) == 0
    else -> a == b
}

/** isNumber reports whether p is a JSON number. */
fun isNumber(p: JsonPrimitive): Boolean = p !is JsonNull && !p.isString && p.content.toBigDecimalOrNull() != null
