package diff

import "github.com/cetpgen/cetpgen/gen/internal/schemaref"

// node is one subschema on one side of a comparison.
type node struct {
	v    any    // the subschema: map[string]any or bool
	ptr  string // its JSON pointer from the schema root
	root any    // the schema document, for $ref
	via  string // the $ref followed to reach it, if any
	// idx is the document's reference index, shared by all its nodes.
	idx *schemaref.Index
}

// docBase is the base URI of a compared schema without "$id".
const docBase = "urn:cetpgen:diff"

// rootNode is the node of a whole schema document.
func rootNode(doc any) node { return node{v: doc, root: doc, idx: schemaref.New(doc, docBase)} }

// obj returns the node's keywords: those of an object schema, none for
// true (which accepts everything), and nil for false.
func (n node) obj() map[string]any {
	switch x := n.v.(type) {
	case map[string]any:
		return x
	case bool:
		if x {
			return map[string]any{}
		}
	}
	return nil
}

// kw returns the value of keyword k.
func (n node) kw(k string) (any, bool) {
	v, ok := n.obj()[k]
	return v, ok
}

// child returns the subschema v found under the pointer tokens.
func (n node) child(v any, tokens ...string) node {
	ptr := n.ptr
	for _, t := range tokens {
		ptr += "/" + schemaref.Escape(t)
	}
	return node{v: v, ptr: ptr, root: n.root, via: n.via, idx: n.idx}
}

// without returns a copy of the node without the keywords ks.
func (n node) without(ks ...string) node {
	m := map[string]any{}
	for k, v := range n.obj() {
		m[k] = v
	}
	for _, k := range ks {
		delete(m, k)
	}
	n.v = m
	return n
}

// isFalse reports whether the node is the schema false.
func (n node) isFalse() bool { b, ok := n.v.(bool); return ok && !b }

// isTrue reports whether the node accepts every instance: true, or an
// object with no constraining keyword.
func (n node) isTrue() bool {
	if b, ok := n.v.(bool); ok {
		return b
	}
	for k := range n.obj() {
		if !annotationOnly[k] {
			return false
		}
	}
	return true
}

// resolve follows a $ref of the node against the base URI in effect
// there (gen/internal/schemaref, as the IR resolves it). ok is false for a
// reference that leaves the document or names nothing in it.
func (n node) resolve(ref string) (node, bool) {
	ptr, err := n.idx.Resolve(n.idx.Base(n.ptr), ref)
	if err != nil {
		return node{}, false
	}
	return n.pointer(ptr, ref)
}

// pointer is the node at a JSON pointer from the document root.
func (n node) pointer(ptr, ref string) (node, bool) {
	v, ok := schemaref.ValueAt(n.root, ptr)
	if !ok {
		return node{}, false
	}
	return node{v: v, ptr: ptr, root: n.root, via: ref, idx: n.idx}, true
}

// itoa formats a small non-negative integer.
func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// annotationOnly are keywords that constrain no instance.
var annotationOnly = map[string]bool{
	"title": true, "description": true, "$comment": true, "examples": true,
	"default": true, "$schema": true, "$defs": true, "definitions": true, "deprecated": true,
	"readOnly": true, "writeOnly": true, "$anchor": true, "$dynamicAnchor": true,
	"$vocabulary": true, "contentEncoding": true, "contentMediaType": true, "contentSchema": true,
}
