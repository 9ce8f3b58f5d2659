package schemaref

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"
)

// doc decodes a JSON test document.
func doc(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

const base = "urn:test:schema"

// TestResolve proves each kind of reference resolves against its correct
// base: "#" and pointers inside an embedded "$id" resource are that
// resource's, anchors belong to their resource, a relative URI names a
// sibling resource, and references that leave the document, name nothing
// or are no URI say why.
func TestResolve(t *testing.T) {
	x := New(doc(t, `{
		"$defs": {
			"a": {"$anchor": "top", "type": "string"},
			"tree": {"$id": "https://example.com/tree", "$anchor": "node",
				"properties": {"kids": {"items": {"$ref": "#"}}, "leaf": {"$ref": "#/$defs/leaf"}},
				"$defs": {"leaf": {"type": "integer"}}},
			"other": {"$id": "https://example.com/other", "$ref": "tree#node"}
		},
		"properties": {"c": {"const": {"$anchor": "notanchor"}}}
	}`), base)
	kids := "/$defs/tree/properties/kids/items"
	cases := []struct {
		at, ref, want string
		err           error
	}{
		{"", "#", "", nil},
		{"", "#/$defs/a", "/$defs/a", nil},
		{"", "#top", "/$defs/a", nil},
		{kids, "#", "/$defs/tree", nil},
		{kids, "#/$defs/leaf", "/$defs/tree/$defs/leaf", nil},
		{kids, "#node", "/$defs/tree", nil},
		{kids, "#top", "", ErrUnresolved},
		{"/$defs/other", "tree#node", "/$defs/tree", nil},
		{"/$defs/other", "https://example.com/tree#/$defs/leaf", "/$defs/tree/$defs/leaf", nil},
		{"", "#notanchor", "", ErrUnresolved},
		{"", "#/$defs/missing", "", ErrUnresolved},
		{"", "#/allOf/01", "", ErrUnresolved},
		{"", "https://elsewhere.example/x", "", ErrNonlocal},
		{"", "%zz", "", ErrSyntax},
	}
	for _, c := range cases {
		got, err := x.Resolve(x.Base(c.at), c.ref)
		if got != c.want || !errors.Is(err, c.err) {
			t.Errorf("at %q, %s: got %q, %v; want %q, %v", c.at, c.ref, got, err, c.want, c.err)
		}
	}
}

// TestIndexRefsAndBadIDs proves the index lists every reference with the
// base it resolves against, in Each's order, and every malformed "$id",
// and skips data keywords.
func TestIndexRefsAndBadIDs(t *testing.T) {
	x := New(doc(t, `{
		"properties": {"b": {"$ref": "#/$defs/x"}, "a": {"$id": "%zz", "$dynamicRef": "#d"}},
		"$defs": {"x": {"$id": "https://example.com/x", "items": {"$ref": "#"}}},
		"default": {"$ref": "#/not/a/schema"}
	}`), base)
	want := []Ref{
		{Ptr: "/$defs/x/items/$ref", Value: "#", Base: "https://example.com/x"},
		{Ptr: "/properties/a/$dynamicRef", Value: "#d", Base: base},
		{Ptr: "/properties/b/$ref", Value: "#/$defs/x", Base: base},
	}
	if !slices.Equal(x.Refs, want) {
		t.Errorf("refs %+v, want %+v", x.Refs, want)
	}
	if len(x.BadIDs) != 1 || x.BadIDs[0].Ptr != "/properties/a/$id" || x.BadIDs[0].ID != "%zz" {
		t.Errorf("bad ids %+v", x.BadIDs)
	}
}

// TestWalkVisitsOnlySchemas proves Walk reaches every applicator's
// subschemas, parents first, and never data.
func TestWalkVisitsOnlySchemas(t *testing.T) {
	v := doc(t, `{
		"properties": {"p": {}}, "patternProperties": {"^x": {}}, "$defs": {"d": {}},
		"dependentSchemas": {"p": {}}, "definitions": {"old": {}},
		"additionalProperties": {}, "propertyNames": {}, "items": {}, "contains": {},
		"not": {}, "if": {}, "then": {}, "else": {}, "unevaluatedItems": {},
		"unevaluatedProperties": {}, "contentSchema": {},
		"allOf": [{}], "anyOf": [{}], "oneOf": [{}], "prefixItems": [{}, true],
		"const": {"type": "string"}, "enum": [{}], "default": {}, "examples": [{}]
	}`)
	var got []string
	Walk(v, "", func(_ map[string]any, ptr string) { got = append(got, ptr) })
	want := []string{"", "/$defs/d", "/definitions/old", "/dependentSchemas/p", "/patternProperties/^x", "/properties/p",
		"/additionalProperties", "/contains", "/contentSchema", "/else", "/if", "/items", "/not", "/propertyNames",
		"/then", "/unevaluatedItems", "/unevaluatedProperties", "/allOf/0", "/anyOf/0", "/oneOf/0", "/prefixItems/0"}
	if !slices.Equal(got, want) {
		t.Errorf("visited %q\nwant %q", got, want)
	}
}

// TestPointers proves escaping round-trips and ValueAt follows RFC 6901.
func TestPointers(t *testing.T) {
	for _, s := range []string{"", "a", "a/b", "~", "~1", "a~/b"} {
		if Unescape(Escape(s)) != s {
			t.Errorf("%q does not round-trip: %q", s, Escape(s))
		}
	}
	v := doc(t, `{"a/b": {"~": [10, 20]}}`)
	if got, ok := ValueAt(v, "/a~1b/~0/1"); !ok || got != float64(20) {
		t.Errorf("ValueAt = %v, %v", got, ok)
	}
	for _, bad := range []string{"/a~1b/~0/01", "/a~1b/~0/2", "/a~1b/~0/-1", "/nope"} {
		if _, ok := ValueAt(v, bad); ok {
			t.Errorf("ValueAt(%q) found a value", bad)
		}
	}
	if got := Canonical("/a~1b/x"); got != "/a~1b/x" {
		t.Errorf("Canonical = %q", got)
	}
	if got := LastToken("/p/a~1b"); got != "a/b" {
		t.Errorf("LastToken = %q", got)
	}
}
