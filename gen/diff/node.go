package diff

import (
	"maps"
	"net/url"
	"slices"
	"strings"
)

// node is one subschema on one side of a comparison.
type node struct {
	v    any    // the subschema: map[string]any or bool
	ptr  string // its JSON pointer from the schema root
	root any    // the schema document, for $ref
	via  string // the $ref followed to reach it, if any
}

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
		ptr += "/" + escapeToken(t)
	}
	return node{v: v, ptr: ptr, root: n.root, via: n.via}
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

// resolve follows a local $ref: a JSON pointer fragment or a plain-name
// anchor. ok is false for anything else (another document, an embedded
// resource's base URI).
func (n node) resolve(ref string) (node, bool) {
	if !strings.HasPrefix(ref, "#") {
		return node{}, false
	}
	frag, err := url.PathUnescape(ref[1:])
	if err != nil {
		return node{}, false
	}
	if frag == "" || strings.HasPrefix(frag, "/") {
		return n.pointer(frag, ref)
	}
	return n.anchor(frag, ref)
}

// pointer resolves a JSON pointer from the document root.
func (n node) pointer(ptr, ref string) (node, bool) {
	cur := n.root
	if ptr != "" {
		for _, tok := range strings.Split(ptr[1:], "/") {
			next, ok := step(cur, unescapeToken(tok))
			if !ok {
				return node{}, false
			}
			cur = next
		}
	}
	return node{v: cur, ptr: ptr, root: n.root, via: ref}, true
}

// step descends one pointer token into an object or array.
func step(cur any, tok string) (any, bool) {
	switch x := cur.(type) {
	case map[string]any:
		v, ok := x[tok]
		return v, ok
	case []any:
		for i := range x {
			if itoa(i) == tok {
				return x[i], true
			}
		}
	}
	return nil, false
}

// anchor finds the subschema that declares $anchor name.
func (n node) anchor(name, ref string) (node, bool) {
	ptr, ok := findAnchor(n.root, "", name)
	if !ok {
		return node{}, false
	}
	return n.pointer(ptr, ref)
}

// findAnchor searches v depth-first, in key order, for $anchor name.
func findAnchor(v any, ptr, name string) (string, bool) {
	switch x := v.(type) {
	case map[string]any:
		if x["$anchor"] == name {
			return ptr, true
		}
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if p, ok := findAnchor(x[k], ptr+"/"+escapeToken(k), name); ok {
				return p, true
			}
		}
	case []any:
		for i, item := range x {
			if p, ok := findAnchor(item, ptr+"/"+itoa(i), name); ok {
				return p, true
			}
		}
	}
	return "", false
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
