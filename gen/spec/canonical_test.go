package spec

import "testing"

// TestCanonicalStrings proves strings keep every character but those JSON
// must escape, wherever in a string they fall, and that a byte that is
// not UTF-8 becomes U+FFFD.
func TestCanonicalStrings(t *testing.T) {
	for in, want := range map[string]string{
		"":               `""`,
		"plain text":     `"plain text"`,
		`"q" \ end`:      `"\"q\" \\ end"`,
		"a\nb\tc\x01":    `"a\nb\tc\u0001"`,
		"価格 é \ufffd":    `"価格 é ` + "\ufffd" + `"`,
		"a\xffb\xc3":     `"a\ufffdb\ufffd"`,
		"\x1f<>&\u2028x": `"\u001f<>&` + "\u2028" + `x"`,
	} {
		got, err := Canonical(in)
		if err != nil || string(got) != want {
			t.Errorf("Canonical(%q) = %s, %v; want %s", in, got, err, want)
		}
	}
}
