// CorpusTest runs the instances of the Go emitter's keyword corpus
// (CorpusTrips.kt, written by jvm_test.go) through the Kotlin input types
// of the corpus Provider and compares the outcome with the Go runtime's
// verdict: a valid instance decodes and encodes back JSON-equal, an invalid
// one is refused with InvalidArgs. Known divergences are listed, with
// their reason, in corpus-divergences.txt; any other outcome fails.
package harness

import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonElement
import org.junit.Test

/** CorpusChecks compares each instance's outcome with the Go verdict. */
class CorpusChecks(val c: Checks) {
    /** instance runs one corpus case; valid is the Go runtime's verdict. */
    fun instance(name: String, valid: Boolean, json: String, convert: (JsonElement) -> JsonElement) {
        val e = Json.parseToJsonElement(json)
        val outcome = try {
            val back = convert(e)
            if (jsonEqual(back, e)) "kept" else "changed to $back"
        } catch (x: IllegalArgumentException) {
            if (x.javaClass.simpleName == "InvalidArgs") "refused (${x.message})" else "threw $x"
        }
        val agrees = if (valid) outcome == "kept" else outcome.startsWith("refused")
        val known = corpusDivergences[name]
        when {
            known == null -> c.check("corpus $name", agrees, "Go says ${if (valid) "valid" else "invalid"}, Kotlin $outcome: $json")
            else -> c.check("corpus $name (listed: $known)", !agrees, "no longer diverges: remove it from corpus-divergences.txt")
        }
        if (!agrees) println("corpus divergence: $name ${if (valid) "valid" else "invalid"} Kotlin $outcome")
    }
}

class CorpusTest {
    @Test
    fun keywordCorpus() {
        val c = Checks()
        corpusTrips(CorpusChecks(c))
        c.done()
    }
}
