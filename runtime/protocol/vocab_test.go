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

// TestAnnotationsMatchToolMetaSchema proves the tool meta-schema's
// annotations object requires exactly the enumerated annotations of
// Vocabularies and the AnnotationFlags, the flags as booleans.
func TestAnnotationsMatchToolMetaSchema(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "schema", "tool.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Properties struct {
			Annotations struct {
				Required   []string `json:"required"`
				Properties map[string]struct {
					Type string `json:"type"`
				} `json:"properties"`
			} `json:"annotations"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	a := doc.Properties.Annotations
	want := slices.Clone(AnnotationFlags)
	for _, v := range AnnotationVocabularies() {
		want = append(want, v.Field)
	}
	if got := slices.Sorted(slices.Values(a.Required)); !slices.Equal(got, slices.Sorted(slices.Values(want))) {
		t.Errorf("tool meta-schema requires annotations %q, package protocol declares %q", got, want)
	}
	for _, f := range AnnotationFlags {
		if a.Properties[f].Type != "boolean" {
			t.Errorf("annotation %s: meta-schema type %q, want boolean", f, a.Properties[f].Type)
		}
	}
}

// TestConfirmationReason proves the §3.4 rule: delete, transaction,
// destructive and high risk each need confirmation always, nothing else.
func TestConfirmationReason(t *testing.T) {
	for _, e := range Effects {
		for _, r := range Risks {
			for _, d := range []bool{false, true} {
				need := e == EffectDelete || e == EffectTransaction || d || r == RiskHigh
				if got := ConfirmationReason(e, r, d); (got != "") != need {
					t.Errorf("ConfirmationReason(%s, %s, %v) = %q, want a reason: %v", e, r, d, got, need)
				}
			}
		}
	}
}

// TestCapabilityNames proves the plain-string list is the typed one.
func TestCapabilityNames(t *testing.T) {
	want := []string{CapAsyncOperations, CapCancellation, CapLargeResults}
	if got := CapabilityNames(); !slices.Equal(got, want) {
		t.Errorf("CapabilityNames() = %q, want %q", got, want)
	}
}
