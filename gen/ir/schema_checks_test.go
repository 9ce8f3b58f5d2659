package ir_test

import (
	"testing"
)

// TestSubschemas proves the validator's view of a schema: every
// subschema an applicator holds is listed once, typing or not (a "not",
// an "if", a "contains" and "$defs" only reached by reference), each
// "$ref" points at its target resolved against its resource's base, and
// a reference to a location no applicator holds is listed too.
func TestSubschemas(t *testing.T) {
	g := graph(t, `{"type":"object",
	  "properties":{"a":{"not":{"type":"null"}},"t":{"$ref":"https://example.com/t"},"x":{"$ref":"#/$defs/x/contains"}},
	  "if":{"required":["a"]},"then":true,
	  "$defs":{
		"t":{"$id":"https://example.com/t","items":{"$ref":"#"},"$defs":{"unused":{"type":"string"}}},
		"x":{"contains":{"const":1}},
		"far":{"type":"integer"}}}`)
	byPtr := map[string]int{}
	for i, s := range g.Subschemas() {
		if s.ID != i {
			t.Errorf("%s: ID %d at index %d", s.Ptr, s.ID, i)
		}
		if _, dup := byPtr[s.Ptr]; dup {
			t.Errorf("%s listed twice", s.Ptr)
		}
		byPtr[s.Ptr] = i
	}
	for _, ptr := range []string{"", "/properties/a", "/properties/a/not", "/if", "/then", "/$defs/t", "/$defs/t/items",
		"/$defs/t/$defs/unused", "/$defs/x", "/$defs/x/contains", "/$defs/far"} {
		if _, ok := byPtr[ptr]; !ok {
			t.Errorf("subschema %q is not listed", ptr)
		}
	}
	if g.Subschemas()[0].Ptr != "" {
		t.Errorf("the root is %q, want first", g.Subschemas()[0].Ptr)
	}
	refs := map[string]string{"/properties/t": "/$defs/t", "/$defs/t/items": "/$defs/t", "/properties/x": "/$defs/x/contains"}
	for from, to := range refs {
		s := g.Subschemas()[byPtr[from]]
		if s.Ref == nil || s.Ref.Ptr != to {
			t.Errorf("%s: $ref resolved to %v, want %s", from, s.Ref, to)
		}
	}
	a := g.Subschemas()[byPtr["/properties/a"]]
	if g.At(a, "not") == nil || g.At(a, "not").Ptr != "/properties/a/not" || g.At(a, "items") != nil {
		t.Errorf("At below /properties/a: not=%v items=%v", g.At(a, "not"), g.At(a, "items"))
	}
}

// TestSubschemasUnresolved proves a "$ref" naming nothing in the document
// is kept, not dropped, so that a target can refuse it.
func TestSubschemasUnresolved(t *testing.T) {
	g := graph(t, `{"properties":{"a":{"$ref":"#/$defs/missing"}}}`)
	for _, s := range g.Subschemas() {
		if s.Ptr == "/properties/a" {
			if s.Ref != nil || s.Unresolved != "#/$defs/missing" {
				t.Fatalf("unresolved $ref: Ref %v, Unresolved %q", s.Ref, s.Unresolved)
			}
			return
		}
	}
	t.Fatal("/properties/a is not listed")
}
