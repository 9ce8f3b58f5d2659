package kotlin

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/cetpgen/cetpgen/gen/ir"
)

// TestInPlaceCycles checks which subschemas get a recursion guard: those
// that reach themselves through "$ref" and in-place applicators (allOf, a
// dependentSchemas member whose name holds "/", a chain of "not"), and
// not those whose loop passes through "properties", which moves to a
// member of the instance.
func TestInPlaceCycles(t *testing.T) {
	const doc = `{
		"properties": {
			"a": {"$ref": "#/$defs/a"},
			"d": {"$ref": "#/$defs/d"},
			"n": {"$ref": "#/$defs/n"},
			"p": {"$ref": "#/$defs/p"}
		},
		"$defs": {
			"a": {"allOf": [{"type": "object"}, {"$ref": "#/$defs/b"}]},
			"b": {"allOf": [{"$ref": "#/$defs/a"}]},
			"d": {"dependentSchemas": {"x/y": {"$ref": "#/$defs/d"}}},
			"n": {"not": {"not": {"$ref": "#/$defs/n"}}},
			"p": {"properties": {"q": {"$ref": "#/$defs/p"}}}
		}
	}`
	var v any
	if err := json.Unmarshal([]byte(doc), &v); err != nil {
		t.Fatal(err)
	}
	g := ir.BuildGraph(v, "t", "input")
	var got []string
	for s := range inPlaceCycles(newSubIndex(g)) {
		got = append(got, s.Ptr)
	}
	slices.Sort(got)
	want := []string{
		"/$defs/a", "/$defs/a/allOf/1", "/$defs/b", "/$defs/b/allOf/0",
		"/$defs/d", "/$defs/d/dependentSchemas/x~1y",
		"/$defs/n", "/$defs/n/not", "/$defs/n/not/not",
	}
	if !slices.Equal(got, want) {
		t.Errorf("cyclic subschemas:\n got %q\nwant %q", got, want)
	}
}

// TestResolveMalformed checks that text holding a NUL outside a
// placeholder fails with an error instead of a panic.
func TestResolveMalformed(t *testing.T) {
	names := []string{"PATTERN_0"}
	if got, err := resolve("a\x000\x00b", names); err != nil || got != "aPATTERN_0b" {
		t.Errorf("resolve placeholder = %q, %v", got, err)
	}
	for _, s := range []string{"a\x000", "a\x00x\x00", "a\x001\x00", "\x00\x00"} {
		if got, err := resolve(s, names); err == nil {
			t.Errorf("resolve(%q) = %q, want an error", s, got)
		}
	}
}
