package cliout_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/cetpgen/cetpgen/runtime/cliout"
)

// TestJSONError checks the position JSONError gives for the mistakes a
// user types: the byte, and the line and column in a multi-line value.
func TestJSONError(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"a":1}`, ""},
		{` [1, 2] `, ""},
		{``, "no JSON value (empty input)"},
		{`{"a":1,}`, "invalid JSON at byte 8: invalid character '}' looking for beginning of object key string"},
		{`{"a":`, "invalid JSON at byte 5: unexpected end of JSON input"},
		{`{} x`, "invalid JSON at byte 4: invalid character 'x' after top-level value"},
		{"{\n  \"a\": tru\n}", "invalid JSON at byte 13 (line 2, column 11): invalid character '\\n' in literal true (expecting 'e')"},
		{"[1,\n2,\n\n'x']", "invalid JSON at byte 9 (line 4, column 1): invalid character '\\'' looking for beginning of value"},
	}
	for _, c := range cases {
		err := cliout.JSONError([]byte(c.in))
		if got := errText(err); got != c.want {
			t.Errorf("%q: %q, want %q", c.in, got, c.want)
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// FuzzJSONError requires JSONError to agree with json.Valid and to point
// inside the input.
func FuzzJSONError(f *testing.F) {
	for _, s := range []string{`{"a":1}`, "{\n\"a\":\n}", `[1,2`, ``, "\xff", `"\u12"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		err := cliout.JSONError(data)
		if (err == nil) != json.Valid(data) {
			t.Fatalf("%q: JSONError %v, json.Valid %v", data, err, json.Valid(data))
		}
		if err != nil && len(data) > 0 && !strings.HasPrefix(err.Error(), "invalid JSON at byte ") {
			t.Fatalf("%q: %v", data, err)
		}
	})
}
