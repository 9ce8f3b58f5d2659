package schemaref

import (
	"encoding/json"
	"testing"
)

// FuzzIndex indexes arbitrary JSON documents as schemas: indexing and
// resolving every reference must not panic, and a reference that resolves
// must name a value of the document.
func FuzzIndex(f *testing.F) {
	for _, s := range []string{
		`{"$ref": "#"}`,
		`{"$id": "https://e.com/a", "$defs": {"b": {"$id": "b", "$anchor": "x", "items": {"$ref": "#x"}}}, "$ref": "b#/items"}`,
		`{"properties": {"a~b": {"$ref": "#/properties/a~0b"}}, "allOf": [{"$ref": "#/allOf/0"}]}`,
		`{"$id": "%zz", "$ref": "::"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v any
		if json.Unmarshal(data, &v) != nil {
			return
		}
		x := New(v, "urn:fuzz:schema")
		for _, r := range x.Refs {
			ptr, err := x.Resolve(r.Base, r.Value)
			if err != nil {
				continue
			}
			if _, ok := ValueAt(v, ptr); !ok {
				t.Fatalf("%s resolved to %q, which names nothing", r.Value, ptr)
			}
		}
	})
}
