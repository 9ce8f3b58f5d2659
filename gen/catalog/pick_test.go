package catalog

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestMustJSONMatchesMarshal holds the reflection-free paths of mustJSON
// to json.Marshal.
func TestMustJSONMatchesMarshal(t *testing.T) {
	for _, v := range []any{"", "plain", `a "q" \ <b>&`, "é\u2028", "bad \xff", true, false,
		[]string(nil), []string{}, []string{"a", "<&>", "\n"}, 3, map[string]int{"b": 1, "a": 2}, (*int)(nil)} {
		want, _ := json.Marshal(v)
		if got := mustJSON(v); !bytes.Equal(got, want) {
			t.Errorf("mustJSON(%#v) = %s, want %s", v, got, want)
		}
	}
}
