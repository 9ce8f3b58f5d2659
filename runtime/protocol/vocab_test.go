package protocol

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestVocabularyMatchesMetaSchemas proves the meta-schemas that spec
// authors write against (schema/provider.schema.json and
// schema/tool.schema.json) enumerate exactly the values declared here,
// in the same order, for every field of Vocabularies: a value added on
// one side only fails here.
func TestVocabularyMatchesMetaSchemas(t *testing.T) {
	found := map[string][][]string{}
	for _, name := range []string{"provider.schema.json", "tool.schema.json"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "schema", name))
		if err != nil {
			t.Fatal(err)
		}
		var doc any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		collectEnums(doc, found)
	}
	for _, v := range Vocabularies() {
		lists := found[v.Field]
		if len(lists) == 0 {
			t.Errorf("%s: no enum in the meta-schemas", v.Field)
		}
		for _, got := range lists {
			if !slices.Equal(got, v.Values) {
				t.Errorf("%s: meta-schema enumerates %q, package protocol declares %q", v.Field, got, v.Values)
			}
		}
	}
}

// collectEnums records, for every member of a "properties" object whose
// schema (or whose items schema) has an enum of strings, that enum.
func collectEnums(v any, found map[string][][]string) {
	switch x := v.(type) {
	case map[string]any:
		if props, ok := x["properties"].(map[string]any); ok {
			for name, s := range props {
				if e := stringEnum(s); e != nil {
					found[name] = append(found[name], e)
				}
			}
		}
		for _, c := range x {
			collectEnums(c, found)
		}
	case []any:
		for _, c := range x {
			collectEnums(c, found)
		}
	}
}

// stringEnum returns the string enum of a schema or of its items.
func stringEnum(s any) []string {
	obj, _ := s.(map[string]any)
	if items, ok := obj["items"].(map[string]any); ok {
		obj = items
	}
	vals, ok := obj["enum"].([]any)
	if !ok {
		return nil
	}
	var out []string
	for _, e := range vals {
		str, ok := e.(string)
		if !ok {
			return nil
		}
		out = append(out, str)
	}
	return out
}

// TestWrites proves only read leaves state unchanged.
func TestWrites(t *testing.T) {
	for _, e := range Effects {
		if e.Writes() != (e != EffectRead) {
			t.Errorf("%s.Writes() = %v", e, e.Writes())
		}
	}
}
