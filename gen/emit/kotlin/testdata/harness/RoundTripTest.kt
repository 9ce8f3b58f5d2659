// RoundTripTest runs the cases of roundtrip.txt (compiled into
// RoundTrips.kt by jvm_test.go) on real kotlinx JsonElements: valid
// instances decode and encode back equal, wrong shapes throw InvalidArgs.
// The typed classes use no Android class, so a plain JUnit runner does.
package harness

import org.junit.Test

class RoundTripTest {
    @Test
    fun roundTripsOfRoundtripTxt() {
        val c = Checks()
        roundTrips(c)
        c.done()
    }
}
