package ir_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/cetpgen/cetpgen/gen"
	"github.com/cetpgen/cetpgen/gen/ir"
)

// graph builds the graph of a schema written as JSON.
func graph(t *testing.T, schema string) *ir.Graph {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader([]byte(schema)))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return ir.BuildGraph(v, "tool", "input")
}

// prop returns the member named name of an object node.
func prop(t *testing.T, n *ir.Node, name string) *ir.Prop {
	t.Helper()
	for _, p := range n.Resolved().Props {
		if p.Name == name {
			return p
		}
	}
	t.Fatalf("no member %q in %s (kind %d)", name, n.Ptr, n.Resolved().Kind)
	return nil
}

// TestRefBase proves "$ref" resolves against the base of the resource it
// sits in: "#" inside a resource embedded under its own "$id" is that
// resource, pointers are relative to it, anchors are found by resource,
// and an "$anchor" inside a const value is not an anchor.
func TestRefBase(t *testing.T) {
	g := graph(t, `{"type":"object","properties":{
		"tree":{"$ref":"https://example.com/tree"},
		"self":{"$ref":"#"},
		"name":{"$ref":"#nm"},
		"fake":{"$ref":"#ghost"}},
	  "$defs":{
		"name":{"$anchor":"nm","type":"string"},
		"c":{"const":{"$anchor":"ghost","type":"string"}},
		"tree":{"$id":"https://example.com/tree","type":"object",
			"properties":{"kids":{"type":"array","items":{"$ref":"#"}},"label":{"$ref":"#/$defs/label"}},
			"$defs":{"label":{"type":"integer"}}}}}`)
	root := g.Root
	tree := prop(t, root, "tree").Node.Resolved()
	if tree.Ptr != "/$defs/tree" {
		t.Fatalf("tree resolved to %q", tree.Ptr)
	}
	if kid := prop(t, tree, "kids").Node.Items.Resolved(); kid != tree {
		t.Errorf(`"#" inside the tree resource resolved to %q, want the resource`, kid.Ptr)
	}
	if l := prop(t, tree, "label").Node.Resolved(); l.Ptr != "/$defs/tree/$defs/label" || l.Kind != ir.KindInteger {
		t.Errorf("pointer inside the resource resolved to %q kind %d", l.Ptr, l.Kind)
	}
	if s := prop(t, root, "self").Node.Resolved(); s != root {
		t.Errorf(`"#" at the root resolved to %q`, s.Ptr)
	}
	if n := prop(t, root, "name").Node.Resolved(); n.Kind != ir.KindString {
		t.Errorf("anchor resolved to kind %d", n.Kind)
	}
	if f := prop(t, root, "fake").Node; f.Kind != ir.KindAny {
		t.Errorf("an anchor inside a const value resolved (kind %d)", f.Kind)
	}
}

// TestOneNodePerSubschema proves a subschema reached inline and through
// "$ref" (by pointer into properties) is one node, and that a oneOf told
// apart by a one-value enum is a tagged union both ways.
func TestOneNodePerSubschema(t *testing.T) {
	g := graph(t, `{"type":"object","properties":{
		"shape":{"oneOf":[{"$ref":"#/$defs/circle"},{"$ref":"#/$defs/square"}]},
		"again":{"$ref":"#/properties/shape"}},
	  "$defs":{
		"circle":{"type":"object","properties":{"kind":{"enum":["circle"]},"r":{"type":"number"}},"required":["kind","r"]},
		"square":{"type":"object","properties":{"kind":{"const":"square"}},"required":["kind"]}}}`)
	shape, again := prop(t, g.Root, "shape").Node, prop(t, g.Root, "again").Node.Resolved()
	if shape != again {
		t.Fatalf("two nodes for one subschema: %p %p", shape, again)
	}
	if shape.Kind != ir.KindTagged || shape.Disc != "kind" || len(shape.Variants) != 2 || shape.Variants[0].Value != "circle" {
		t.Fatalf("shape: kind %d disc %q", shape.Kind, shape.Disc)
	}
}

// TestClassify proves the classification the fidelity rules rest on.
func TestClassify(t *testing.T) {
	g := graph(t, `{"type":"object","properties":{
		"untyped":{"properties":{"foo":{"type":"string"}},"required":["foo"]},
		"int":{"type":"integer"},
		"bounded":{"type":"integer","minimum":0,"maximum":10},
		"huge":{"type":"integer","minimum":0,"maximum":1e30},
		"small_enum":{"type":"integer","enum":[1,2.0]},
		"either":{"type":["string","integer"]},
		"maybe":{"oneOf":[{"type":"string"},{"type":"null"}]},
		"free":{"type":"object","properties":{"a":{"type":"string"}}},
		"closed":{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false},
		"typed":{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":{"type":"integer"}},
		"patterned":{"type":"object","properties":{"a":{"type":"string"}},"patternProperties":{"^x":{}},"additionalProperties":false},
		"dict":{"type":"object","additionalProperties":{"type":"boolean"}},
		"tuple":{"type":"array","prefixItems":[{"type":"string"}],"items":false},
		"yes":true,"no":false,
		"merged":{"allOf":[{"type":"object","properties":{"a":{"type":"string"}}},{"properties":{"b":{"type":"integer"}},"required":["b"]}]},
		"constraint_union":{"type":"object","properties":{"a":{"type":"string"}},"oneOf":[{"required":["a"]},{"required":["b"]}]}}}`)
	kind := func(name string) *ir.Node { return prop(t, g.Root, name).Node }
	if u := kind("untyped"); u.Kind != ir.KindUnion || !u.Open || !u.IsNullable() || u.Variants[0].Node.Kind != ir.KindObject {
		t.Errorf("a schema without type is not a JSON value with an object view: kind %d open %v", u.Kind, u.Open)
	}
	for name, want := range map[string]ir.IntKind{"int": ir.IntBig, "bounded": ir.Int64, "huge": ir.IntBig, "small_enum": ir.Int64} {
		if n := kind(name); n.Kind != ir.KindInteger || n.Int != want {
			t.Errorf("%s: kind %d int %d, want %d", name, n.Kind, n.Int, want)
		}
	}
	if n := kind("either"); n.Kind != ir.KindUnion || n.Open || len(n.Variants) != 2 {
		t.Errorf("type list: kind %d, %d variants", n.Kind, len(n.Variants))
	}
	if n := kind("maybe"); n.Resolved().Kind != ir.KindString || !n.IsNullable() {
		t.Errorf("nullable string: kind %d nullable %v", n.Resolved().Kind, n.IsNullable())
	}
	for name, want := range map[string]ir.ExtraPolicy{"free": ir.ExtraAny, "closed": ir.ExtraNone, "typed": ir.ExtraTyped, "patterned": ir.ExtraAny, "merged": ir.ExtraAny, "constraint_union": ir.ExtraAny} {
		if n := kind(name); n.Kind != ir.KindObject || n.Extra != want {
			t.Errorf("%s: kind %d extra %d, want object with %d", name, n.Kind, n.Extra, want)
		}
	}
	if n := kind("typed"); n.ExtraNode.Kind != ir.KindInteger {
		t.Errorf("typed extra members: kind %d", n.ExtraNode.Kind)
	}
	if n := kind("dict"); n.Kind != ir.KindMap || n.ExtraNode.Kind != ir.KindBool {
		t.Errorf("dict: kind %d", n.Kind)
	}
	if n := kind("tuple"); n.Kind != ir.KindTuple || len(n.Prefix) != 1 || n.Items != nil {
		t.Errorf("closed tuple: kind %d", n.Kind)
	}
	if kind("yes").Kind != ir.KindAny || kind("no").Kind != ir.KindNever {
		t.Error("boolean schemas")
	}
	if m := kind("merged"); len(m.Props) != 2 || !prop(t, m, "b").Required || prop(t, m, "b").Node.Ptr != "/properties/merged/allOf/1/properties/b" {
		t.Errorf("allOf members merged wrongly: %d props", len(m.Props))
	}
}

// TestNamesFromIR proves every cross-target name is allocated in the IR,
// once per node: the Go and Kotlin names of tools and declared types,
// the Kotlin service class the manifest declares, and the same names on
// a second build.
func TestNamesFromIR(t *testing.T) {
	build := func() *ir.Provider {
		ps, l, err := gen.Check(gen.OSSource, []string{"../../specs/fitness"})
		if err != nil || l.HasErrors() {
			t.Fatalf("%v %v", err, l)
		}
		return ps[0]
	}
	a, b := build(), build()
	if a.Targets.KotlinService != a.Targets.KotlinClass+"DiscoveryService" {
		t.Errorf("service class %q", a.Targets.KotlinService)
	}
	if len(a.Decls) == 0 || len(a.Decls) != len(b.Decls) {
		t.Fatalf("declarations: %d then %d", len(a.Decls), len(b.Decls))
	}
	seen := map[string]bool{}
	for i, n := range a.Decls {
		if n.GoName == "" || n.KotlinName == "" || n.GoName != b.Decls[i].GoName || n.KotlinName != b.Decls[i].KotlinName {
			t.Errorf("declaration %d: %q/%q then %q/%q", i, n.GoName, n.KotlinName, b.Decls[i].GoName, b.Decls[i].KotlinName)
		}
		if seen[n.GoName] {
			t.Errorf("Go name %q given twice", n.GoName)
		}
		seen[n.GoName] = true
	}
	for _, tool := range a.Tools {
		if tool.Names.GoMethod == "" || tool.Input.Graph.Root.GoName != tool.Names.GoMethod+"Input" {
			t.Errorf("%s: method %q input %q", tool.Name, tool.Names.GoMethod, tool.Input.Graph.Root.GoName)
		}
	}
}

// FuzzBuildGraph builds graphs of arbitrary JSON documents: it never
// panics or loops, every reference resolves to a node that is not itself
// a reference, and every object member and union variant has a node.
func FuzzBuildGraph(f *testing.F) {
	for _, s := range []string{
		`{"$ref":"#"}`, `{"type":"object","oneOf":[{"$ref":"#"},{"type":"null"}]}`,
		`{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"properties":{"x":{"$ref":"#/$defs/a"}}}`,
		`{"$id":"http://x/","properties":{"a":{"$id":"a","items":{"$ref":"#"}},"b":{"$ref":"a#/items"}}}`,
		`{"allOf":[{"$ref":"#"}],"anyOf":[true,false]}`, `true`, `{"properties":{"":{"$anchor":"x"},"y":{"$ref":"#x"}}}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d := json.NewDecoder(bytes.NewReader([]byte(s)))
		d.UseNumber()
		var v any
		if d.Decode(&v) != nil {
			return
		}
		g := ir.BuildGraph(v, "t", "input")
		for _, n := range g.Nodes {
			if r := n.Resolved(); r.Kind == ir.KindRef {
				t.Fatalf("%s: reference cycle left at %s", s, r.Ptr)
			}
			for _, p := range n.Props {
				if p.Node == nil {
					t.Fatalf("%s: member %q without a node", s, p.Name)
				}
			}
			for _, vr := range n.Variants {
				if vr.Node == nil {
					t.Fatalf("%s: variant without a node", s)
				}
			}
		}
	})
}
