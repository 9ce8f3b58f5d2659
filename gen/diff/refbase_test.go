package diff

import (
	"encoding/json"
	"testing"
)

// TestRefResolvesAgainstItsResource proves the comparison follows a $ref
// as the IR does: "#/$defs/leaf" inside a resource embedded under its own
// $id names that resource's $defs, not the document's. Narrowing the leaf
// behind it is a definite finding, not an undecided unresolved reference.
func TestRefResolvesAgainstItsResource(t *testing.T) {
	schema := func(leaf string) any {
		var v any
		doc := `{"type": "object", "properties": {"tree": {"$ref": "#/$defs/tree"}},
			"$defs": {"tree": {"$id": "https://example.com/tree", "type": "object",
				"properties": {"value": {"$ref": "#/$defs/leaf"}},
				"$defs": {"leaf": {"type": "` + leaf + `"}}}}}`
		if err := json.Unmarshal([]byte(doc), &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	got := CompareInput(schema("number"), schema("integer"), Containment)
	definite := false
	for _, f := range got {
		if f.Undecided {
			t.Errorf("undecided: %+v", f)
		}
		definite = definite || !f.Note
	}
	if !definite {
		t.Fatalf("narrowing the leaf behind the resource's $ref was not found: %+v", got)
	}
}
