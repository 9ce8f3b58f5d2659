package catalog

import (
	"encoding/json"
	"testing"
)

func TestUnescapeHTMLIsTheEncoderWithoutHTMLEscaping(t *testing.T) {
	for _, s := range []string{`a <b> & c`, `\u003c literally`, `\\u003c`, `\<`, "tab\t<", "\u2028<", `plain`, `"q" & <`} {
		marshalled, _ := json.Marshal(map[string]string{"k": s})
		got := string(unescapeHTML(marshalled))
		want := `{"k":` + encodeNoHTML(t, s) + `}`
		if got != want {
			t.Errorf("%q: got %s, want %s", s, got, want)
		}
		var back map[string]string
		if err := json.Unmarshal([]byte(got), &back); err != nil || back["k"] != s {
			t.Errorf("%q: does not decode back: %v", s, err)
		}
	}
}

func encodeNoHTML(t *testing.T, s string) string {
	t.Helper()
	var b bytesBuffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return string(b[:len(b)-1])
}

type bytesBuffer []byte

func (b *bytesBuffer) Write(p []byte) (int, error) { *b = append(*b, p...); return len(p), nil }

// FuzzUnescapeHTML holds unescapeHTML, for any string, to what an encoder
// without HTML escaping writes.
func FuzzUnescapeHTML(f *testing.F) {
	for _, s := range []string{"<BASE_ID>", `\u003c`, `\\u003c & \u0026`, "a\u2028b<", "\x00<\xff>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		marshalled, err := json.Marshal(s)
		if err != nil {
			return
		}
		if got, want := string(unescapeHTML(marshalled)), encodeNoHTML(t, s); got != want {
			t.Fatalf("%q: got %s, want %s", s, got, want)
		}
	})
}
