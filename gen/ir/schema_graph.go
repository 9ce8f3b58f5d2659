package ir

import (
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Graph is the resolved schema model of one tool schema: every
// subschema that typing reaches is one Node, whichever way it is reached
// (inline, through "$ref" by pointer, anchor or embedded "$id"), so each
// subschema has exactly one type and one name in every target.
type Graph struct {
	// Root is the node of the whole schema.
	Root *Node
	// Nodes are every node in the order built (depth first, members by
	// name), which is deterministic.
	Nodes []*Node
}

// applicatorMaps, applicatorOne and applicatorList are the 2020-12
// keywords whose values hold subschemas: a map of them, one, or a list.
var (
	applicatorMaps = []string{"$defs", "definitions", "dependentSchemas", "patternProperties", "properties"}
	applicatorOne  = []string{"additionalProperties", "contains", "contentSchema", "else", "if", "items", "not", "propertyNames", "then", "unevaluatedItems", "unevaluatedProperties"}
	applicatorList = []string{"allOf", "anyOf", "oneOf", "prefixItems"}
)

// defaultBase is the base URI of a tool schema without "$id"; it only
// has to be absolute so that relative references resolve against it.
func defaultBase(tool, side string) string {
	return "urn:cetpgen:" + url.PathEscape(tool) + ":" + side
}

// resolver indexes one schema document: the base URI in effect at every
// subschema, the resources embedded under "$id" and the anchors.
type resolver struct {
	root any
	// baseOf is the base URI at each subschema's JSON pointer.
	baseOf map[string]string
	// resources maps an absolute URI (no fragment) to the pointer of the
	// resource's root in the document.
	resources map[string]string
	// anchors maps "uri#name" to the pointer of the anchored subschema.
	anchors map[string]string
}

// newResolver indexes doc, whose base URI is base unless its root has an
// "$id".
func newResolver(doc any, base string) *resolver {
	r := &resolver{root: doc, baseOf: map[string]string{}, resources: map[string]string{}, anchors: map[string]string{}}
	r.index(doc, "", base)
	return r
}

// index records the bases, resources and anchors of s at ptr and below,
// visiting only keywords that hold subschemas (an "$anchor" inside a
// const value is not an anchor).
func (r *resolver) index(s any, ptr, base string) {
	obj, ok := s.(map[string]any)
	if !ok {
		r.baseOf[ptr] = base
		return
	}
	if id, ok := obj["$id"].(string); ok {
		if u, err := resolveURI(base, id); err == nil {
			base = u
			r.resources[base] = ptr
		}
	}
	if _, seen := r.resources[base]; !seen {
		r.resources[base] = ptr
	}
	r.baseOf[ptr] = base
	for _, k := range []string{"$anchor", "$dynamicAnchor"} {
		if a, ok := obj[k].(string); ok {
			if _, dup := r.anchors[base+"#"+a]; !dup {
				r.anchors[base+"#"+a] = ptr
			}
		}
	}
	forEachSubschema(obj, ptr, func(sub any, subPtr string) { r.index(sub, subPtr, base) })
}

// forEachSubschema calls f for each subschema directly under obj, in a
// fixed order: keywords by name, members by name, items by index.
func forEachSubschema(obj map[string]any, ptr string, f func(sub any, subPtr string)) {
	for _, k := range applicatorMaps {
		m, _ := obj[k].(map[string]any)
		for _, name := range slices.Sorted(maps.Keys(m)) {
			f(m[name], ptr+"/"+k+"/"+escapePtr(name))
		}
	}
	for _, k := range applicatorOne {
		if sub, ok := obj[k]; ok {
			f(sub, ptr+"/"+k)
		}
	}
	for _, k := range applicatorList {
		list, _ := obj[k].([]any)
		for i, sub := range list {
			f(sub, ptr+"/"+k+"/"+strconv.Itoa(i))
		}
	}
}

// resolveURI resolves ref against base and drops an empty fragment.
func resolveURI(base, ref string) (string, error) {
	b, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	u, err := url.Parse(ref)
	if err != nil {
		return "", err
	}
	abs := b.ResolveReference(u)
	abs.Fragment, abs.RawFragment = "", ""
	return abs.String(), nil
}

// resolve turns a "$ref" seen at a subschema whose base is base into the
// JSON pointer of its target in the document: a JSON pointer fragment is
// taken relative to the resource the URI names ("#" is the enclosing
// resource, not the document root), any other fragment is an anchor.
// References outside the document do not resolve.
func (r *resolver) resolve(base, ref string) (string, bool) {
	b, err := url.Parse(base)
	if err != nil {
		return "", false
	}
	u, err := url.Parse(ref)
	if err != nil {
		return "", false
	}
	abs := b.ResolveReference(u)
	frag := abs.Fragment
	abs.Fragment, abs.RawFragment = "", ""
	res, ok := r.resources[abs.String()]
	if !ok {
		return "", false
	}
	if frag != "" && !strings.HasPrefix(frag, "/") {
		ptr, ok := r.anchors[abs.String()+"#"+frag]
		return ptr, ok
	}
	ptr := canonicalPtr(res + frag)
	_, ok = valueAt(r.root, ptr)
	return ptr, ok
}

// base is the base URI in effect at ptr: recorded by the index, else that
// of the nearest indexed ancestor.
func (r *resolver) base(ptr string) string {
	for {
		if b, ok := r.baseOf[ptr]; ok {
			return b
		}
		i := strings.LastIndexByte(ptr, '/')
		if i < 0 {
			return r.baseOf[""]
		}
		ptr = ptr[:i]
	}
}

// valueAt returns the value at a JSON pointer of doc.
func valueAt(doc any, ptr string) (any, bool) {
	v := doc
	if ptr == "" {
		return v, true
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = unescapePtr(tok)
		switch c := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = c[tok]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) || strconv.Itoa(i) != tok {
				return nil, false
			}
			v = c[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// canonicalPtr re-escapes every token of a JSON pointer, so that two
// spellings of one location are one string.
func canonicalPtr(ptr string) string {
	if ptr == "" {
		return ""
	}
	toks := strings.Split(ptr[1:], "/")
	for i, t := range toks {
		toks[i] = escapePtr(unescapePtr(t))
	}
	return "/" + strings.Join(toks, "/")
}

// escapePtr encodes a member name as a JSON pointer token.
func escapePtr(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// unescapePtr decodes a JSON pointer token.
func unescapePtr(tok string) string {
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
}

// lastToken is the last token of a JSON pointer, unescaped ("" for the
// root).
func lastToken(ptr string) string {
	i := strings.LastIndexByte(ptr, '/')
	if i < 0 {
		return ""
	}
	return unescapePtr(ptr[i+1:])
}
