package kotlin

import (
	"regexp"
	"testing"
)

// TestJavaRegex pins the Java spelling of Go's regular expression
// constructs whose Java reading would differ: anchors, ".", \b, case
// folding, classes and repetition. The JVM test proves the spellings
// match like Go's regexp (testdata/regex.txt).
func TestJavaRegex(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`^a$`, `\A\x{61}\z`},
		{`(?m)^a$`, `(?<![^\x{A}])\x{61}(?![^\x{A}])`},
		{`a.b`, `\x{61}[^\x{A}]\x{62}`},
		{`(?s).`, `[\x{0}-\x{10FFFF}]`},
		{`\d`, `[\x{30}-\x{39}]`},
		{`[^a]`, `[\x{0}-\x{60}\x{62}-\x{10FFFF}]`},
		{`a{2,3}?`, `(?:\x{61}){2,3}?`},
		{`(ab)+`, `(?:(?:\x{61}\x{62}))+`},
		{`a|b|cd`, `(?:[\x{61}-\x{62}]|\x{63}\x{64})`},
		{``, `(?:)`},
		{`\$`, `\x{24}`},
	} {
		got, err := javaRegex(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if got != c.want {
			t.Errorf("%q: got %s, want %s", c.in, got, c.want)
		}
	}
}

// TestJavaRegexRefuses proves a pattern Go's regexp cannot compile (as the
// Go runtime would refuse it) is an error, not a Java pattern.
func TestJavaRegexRefuses(t *testing.T) {
	for _, p := range []string{`(a`, `a\1`, `(?<=a)b`, `a**`} {
		if got, err := javaRegex(p); err == nil {
			t.Errorf("%q: translated to %s, want an error", p, got)
		}
	}
}

// FuzzJavaRegex proves every pattern Go's regexp compiles has a Java
// spelling, the same on every call, and every pattern it refuses has none.
func FuzzJavaRegex(f *testing.F) {
	for _, s := range []string{`^[a-z]+$`, `(?i)straße\d*`, `(?m)^a$|\bb\B`, `[^\x00-\x7f]{2,}?`, `\p{Greek}+|\PL`, `(?s).*`, `a{0}`, `[[:alpha:]-]`, `\Q$^\E`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, pattern string) {
		if _, err := regexp.Compile(pattern); err != nil {
			if _, jerr := javaRegex(pattern); jerr == nil {
				t.Fatalf("%q: Go refuses it, the translation does not", pattern)
			}
			return
		}
		a, err := javaRegex(pattern)
		if err != nil {
			t.Fatalf("%q: %v", pattern, err)
		}
		if b, _ := javaRegex(pattern); a != b {
			t.Fatalf("%q: %s then %s", pattern, a, b)
		}
	})
}
