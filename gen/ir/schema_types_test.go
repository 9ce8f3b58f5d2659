package ir_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/cetpgen/cetpgen/gen/ir"
)

// TestAdmitted checks the one type admission the graph and gen/diff
// share: "type" lists, enum and const values of every JSON type, and
// integers whatever their spelling.
func TestAdmitted(t *testing.T) {
	for schema, want := range map[string]string{
		`{}`:                                    "null, boolean, object, array, string, number",
		`{"type": "number"}`:                    "number",
		`{"type": "integer"}`:                   "integer",
		`{"type": ["string", "null"]}`:          "null, string",
		`{"enum": [1.0, "a"]}`:                  "string, integer",
		`{"enum": [1e2, 2.5]}`:                  "number",
		`{"enum": [0.5]}`:                       "non-integer number",
		`{"const": 1e5000}`:                     "integer",
		`{"const": {"a": [1]}}`:                 "object",
		`{"enum": [[], true, null]}`:            "null, boolean, array",
		`{"type": "string", "const": 1}`:        "nothing",
		`{"type": "integer", "enum": [1.5, 2]}`: "integer",
		`{"type": "strng"}`:                     "nothing",
	} {
		dec := json.NewDecoder(strings.NewReader(schema))
		dec.UseNumber()
		var obj map[string]any
		if err := dec.Decode(&obj); err != nil {
			t.Fatal(err)
		}
		if got := ir.Admitted(obj).String(); got != want {
			t.Errorf("%s admits %s, want %s", schema, got, want)
		}
	}
}
