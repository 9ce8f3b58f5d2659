package diff

import (
	"regexp"
	"strings"
	"testing"
)

// patternCases are pattern pairs with the expected inclusion of the old
// (narrow) language in the new (wide) one: "yes", "no" or "unknown".
var patternCases = []struct {
	narrow, wide string
	want         string
}{
	{`^[.\-A-Za-z0-9]+$`, `^[./\-A-Za-z0-9]+$`, "yes"},
	{`^[./\-A-Za-z0-9]+$`, `^[.\-A-Za-z0-9]+$`, "no"},
	{`^[a-z]+$`, `^[a-z0-9]+$`, "yes"},
	{`^[a-z]+$`, `^[a-z]{1,20}$`, "no"},
	{`^[a-z]{1,20}$`, `^[a-z]+$`, "yes"},
	{`^v[0-9]+$`, `^v?[0-9]+$`, "yes"},
	{`^(main|dev)$`, `^(main|dev|release-[0-9]+)$`, "yes"},
	{`^(main|dev|release-[0-9]+)$`, `^(main|dev)$`, "no"},
	{`^\d{4}-\d{2}-\d{2}$`, `^[0-9-]+$`, "yes"},
	{`abc`, `b`, "yes"},
	{`b`, `abc`, "no"},
	{`^abc`, `^ab`, "yes"},
	{`^ab`, `^abc`, "no"},
	{`[a-z]$`, `[a-z]`, "yes"},
	{"", `^.*$`, "no"},                // "\n" has no line of .* from start to end
	{`^.*$`, `^.*$`, "yes"},           // equal under both readings of "."
	{`^a.b$`, `^a[^\n]b$`, "yes"},     // "." is inside [^\n] in both readings
	{`^a[^\n]b$`, `^a.b$`, "unknown"}, // "a\rb": RE2's "." matches \r, ECMA-262's does not
	{`^[a-z]+$`, `^(?:[a-z]|[0-9])+$`, "yes"},
	{`^\s+$`, `^.+$`, "unknown"},
	{`^\bfoo$`, `foo`, "unknown"},
	{`(?i)^abc$`, `abc`, "unknown"},
	{`^\p{L}+$`, `.`, "unknown"},
	{`^[[:alpha:]]+$`, `^[a-zA-Z]+$`, "unknown"},
	{`^[a-z]{3}$`, `^[a-z]{2,4}$`, "yes"},
	{`^[a-z]{1,4}$`, `^[a-z]{2,4}$`, "no"},
	{`^x*$`, `^(xx)*$`, "no"},
	{`^(xx)*$`, `^x*$`, "yes"},
}

// TestPatternInclusion checks pattern inclusion on automata, and that each
// counterexample really separates the two patterns under Go's regexp.
func TestPatternInclusion(t *testing.T) {
	for _, tc := range patternCases {
		got := patternIncluded(tc.narrow, tc.wide, lengths{max: -1})
		verdict := map[bool]string{true: "yes", false: "no"}[got.included]
		if !got.decided {
			verdict = "unknown"
		}
		if verdict != tc.want {
			t.Errorf("%q in %q: %s (%+v), want %s", tc.narrow, tc.wide, verdict, got, tc.want)
			continue
		}
		if verdict == "unknown" && got.reason == "" {
			t.Errorf("%q in %q: unknown without a reason", tc.narrow, tc.wide)
		}
		if verdict == "no" {
			n, w := regexp.MustCompile(tc.narrow), regexp.MustCompile(tc.wide)
			if !n.MatchString(got.witness) || w.MatchString(got.witness) {
				t.Errorf("%q in %q: witness %q does not separate them", tc.narrow, tc.wide, got.witness)
			}
		}
	}
}

// TestPatternLengths checks that the narrow side's length bounds limit the
// strings compared: [a-z]+ of at most 20 runes fits [a-z]{1,20}.
func TestPatternLengths(t *testing.T) {
	if got := patternIncluded(`^[a-z]+$`, `^[a-z]{1,20}$`, lengths{min: 1, max: 20}); !got.decided || !got.included {
		t.Errorf("bounded [a-z]+ in [a-z]{1,20}: %+v, want included", got)
	}
	if got := patternIncluded(`^[a-z]+$`, `^[a-z]{1,20}$`, lengths{min: 0, max: 21}); !got.decided || got.included || len(got.witness) != 21 {
		t.Errorf("[a-z]+ of up to 21 in [a-z]{1,20}: %+v, want a 21-letter witness", got)
	}
}

// TestPatternTooLarge checks that a pattern whose automaton is too large
// is undecided with the reason, not a pass.
func TestPatternTooLarge(t *testing.T) {
	big := "^[ab]{1000}" + strings.Repeat("c", 3000) + "$"
	got := patternIncluded(big, `^[ab]*$`, lengths{max: -1})
	if got.decided || !strings.Contains(got.reason, "states") {
		t.Errorf("huge pattern: %+v, want undecided naming the state limit", got)
	}
}
