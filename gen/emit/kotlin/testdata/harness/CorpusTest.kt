// CorpusTest runs the instances of the Go emitter's keyword corpus
// (CorpusTrips.kt, written by jvm_test.go with the Go runtime's verdicts)
// through the corpus Provider's generated validators and input types: a
// valid instance passes the input validator, decodes and encodes back
// JSON-equal; an invalid one is refused by the validator (or the type).
// Known divergences of the types are listed, with their reason, in
// corpus-divergences.txt; any other outcome fails. The output validators
// must give the Go runtime's verdict on the output schemas, with no
// divergence.
package harness

import java.util.regex.Pattern
import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonElement
import org.junit.Test

/** CorpusChecks compares each instance's outcome with the Go verdict. */
class CorpusChecks(val c: Checks) {
    /**
     * instance runs one corpus case through the generated Provider's path:
     * the input validator, then the input type's decode and encode; valid is
     * the Go runtime's verdict on the tool's input schema.
     */
    fun instance(name: String, valid: Boolean, json: String, validate: (JsonElement) -> List<String>, convert: (JsonElement) -> JsonElement) {
        val e = Json.parseToJsonElement(json)
        val violations = validate(e)
        val outcome = if (violations.isNotEmpty()) {
            "refused (" + violations.joinToString("; ") + ")"
        } else {
            try {
                val back = convert(e)
                if (jsonEqual(back, e)) "kept" else "changed to $back"
            } catch (x: IllegalArgumentException) {
                if (x.javaClass.simpleName == "InvalidArgs") "refused by the type (${x.message})" else "threw $x"
            }
        }
        val agrees = if (valid) outcome == "kept" else outcome.startsWith("refused")
        val known = corpusDivergences[name]
        when {
            known == null -> c.check("corpus $name", agrees, "Go says ${if (valid) "valid" else "invalid"}, Kotlin $outcome: $json")
            else -> c.check("corpus $name (listed: $known)", !agrees, "no longer diverges: remove it from corpus-divergences.txt")
        }
        if (!agrees) println("corpus divergence: $name ${if (valid) "valid" else "invalid"} Kotlin $outcome")
    }

    /**
     * verdict checks a validator alone (the output side): it must accept
     * exactly what the Go runtime accepts. Violations are spelled
     * "instance keyword: message". No divergence is allowed.
     */
    fun verdict(name: String, valid: Boolean, json: String, validate: (JsonElement) -> List<String>) {
        val violations = validate(Json.parseToJsonElement(json))
        c.check("corpus $name", violations.isEmpty() == valid,
            "Go says ${if (valid) "valid" else "invalid"}, Kotlin " +
                (if (violations.isEmpty()) "valid" else violations.joinToString("; ")) + ": $json")
    }
}

/**
 * bounded checks that a value with more violations than the bound gets
 * exactly MAX_VIOLATIONS (8, the Go runtime's bound), the same list on
 * every run.
 */
fun CorpusChecks.bounded(name: String, json: String, validate: (JsonElement) -> List<String>) {
    val e = Json.parseToJsonElement(json)
    val first = validate(e)
    c.check(name, first.size == 8 && validate(e) == first, first.toString())
}

/** RegexChecks runs translated patterns with java.util.regex. */
class RegexChecks(val c: Checks) {
    /** match checks that the Java pattern finds a match in subject exactly when Go's regexp does. */
    fun match(name: String, translated: String, subject: String, goMatches: Boolean) {
        val found = Pattern.compile(translated).matcher(subject).find()
        c.check(name, found == goMatches, "Go says $goMatches, Java $found for /$translated/")
    }
}

class CorpusTest {
    @Test
    fun validatorCases() {
        val c = Checks()
        validatorCases(CorpusChecks(c))
        c.done()
    }

    @Test
    fun patterns() {
        val c = Checks()
        regexCases(RegexChecks(c))
        c.done()
    }

    @Test
    fun keywordCorpus() {
        val c = Checks()
        corpusTrips(CorpusChecks(c))
        c.done()
    }
}
