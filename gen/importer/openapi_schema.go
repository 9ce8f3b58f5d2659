package importer

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cetpgen/cetpgen/gen/diag"
	"github.com/cetpgen/cetpgen/gen/spec"
)

// componentSchemas is the prefix of the references an operation's schemas
// make into the document's shared schemas.
const componentSchemas = "#/components/schemas/"

// maxRefChain bounds $ref chains between components.
const maxRefChain = 32

// refInliner resolves the references of one operation into the document
// and gathers the component schemas its tool uses.
type refInliner struct {
	doc  *document
	root *object
	defs *object // collected components, by name
	todo []string
}

// resolve follows a $ref to a component (a parameter, a request body, a
// response) and returns the pointer and object it lands on, or nil after
// reporting why not.
func (r *refInliner) resolve(v any, ptr string, l *diag.List) (string, *object) {
	for range maxRefChain {
		o, ok := v.(*object)
		if !ok {
			return ptr, nil
		}
		ref, isRef := o.vals["$ref"].(string)
		if !isRef {
			return ptr, o
		}
		if !strings.HasPrefix(ref, "#/") {
			l.Errorf(r.doc.at(ptr+"/$ref"), "import-remote-ref", "$ref %q refers to another document; CETP v2 schemas must not reference network or file resources (§3.2): bundle the document first", ref)
			return ptr, nil
		}
		target, found := r.lookup(ref[1:])
		if !found {
			l.Errorf(r.doc.at(ptr+"/$ref"), "import-ref", "$ref %q points at nothing in the document", ref)
			return ptr, nil
		}
		v, ptr = target, ref[1:]
	}
	l.Errorf(r.doc.at(ptr), "import-ref", "more than %d $refs in a row", maxRefChain)
	return ptr, nil
}

// lookup is the value at a JSON pointer of the document.
func (r *refInliner) lookup(ptr string) (any, bool) {
	var v any = r.root
	if ptr == "" {
		return v, true
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = spec.UnescapeToken(tok)
		switch x := v.(type) {
		case *object:
			next, ok := x.get(tok)
			if !ok {
				return nil, false
			}
			v = next
		case []any:
			var i int
			if _, err := fmt.Sscanf(tok, "%d", &i); err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// inline copies schema with every "#/components/schemas/<name>…" $ref
// rewritten to "#/$defs/<name>…", and puts each schema used (also those
// used by other components) under the copy's $defs.
func (r *refInliner) inline(schema any, l *diag.List) any {
	r.defs, r.todo = newObject(), nil
	out := r.copy(schema, l)
	for len(r.todo) > 0 {
		name := r.todo[0]
		r.todo = r.todo[1:]
		v, _ := r.lookup("/components/schemas/" + spec.EscapeToken(name))
		r.defs.set(name, r.copy(v, l))
	}
	o, ok := out.(*object)
	if !ok || len(r.defs.keys) == 0 {
		return out
	}
	if o.has("$defs") {
		l.Errorf(r.doc.at("/components/schemas"), "import-ref", "a schema that uses components has its own $defs; merge them by hand")
		return out
	}
	o.set("$defs", r.defs)
	return o
}

// copy deep-copies v, rewriting component references.
func (r *refInliner) copy(v any, l *diag.List) any {
	switch x := v.(type) {
	case *object:
		o := newObject()
		for _, k := range x.keys {
			if s, ok := x.vals[k].(string); ok && k == "$ref" {
				o.set(k, r.rewrite(s, l))
				continue
			}
			o.set(k, r.copy(x.vals[k], l))
		}
		return o
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = r.copy(e, l)
		}
		return out
	}
	return v
}

// rewrite maps a component reference into the tool's $defs; other
// references are kept for convertSchema to judge.
func (r *refInliner) rewrite(ref string, l *diag.List) string {
	if !strings.HasPrefix(ref, componentSchemas) {
		if strings.HasPrefix(ref, "#/") {
			l.Errorf(r.doc.at(ref[1:]), "import-ref", "a schema refers to %q; only references to #/components/schemas are carried into tools", ref)
		}
		return ref
	}
	rest := strings.TrimPrefix(ref, componentSchemas)
	tok, tail, _ := strings.Cut(rest, "/")
	name := spec.UnescapeToken(tok)
	if _, found := r.lookup("/components/schemas/" + tok); !found {
		l.Errorf(r.doc.at("/components/schemas"), "import-ref", "$ref %q points at no component schema", ref)
		return ref
	}
	if !r.defs.has(name) && !slices.Contains(r.todo, name) {
		r.defs.set(name, nil) // reserved; filled from todo
		r.todo = append(r.todo, name)
	}
	out := "#/$defs/" + tok
	if tail != "" {
		out += "/" + tail
	}
	return out
}

// openAPI30 rewrites the schema forms of OpenAPI 3.0 that JSON Schema
// 2020-12 spells differently: nullable: true becomes "null" in type (and
// in enum), example becomes examples. Each is a NOTE at the schema.
func openAPI30(v any, ptr string, c comments) any {
	walkSchemas(v, ptr, func(o *object, at string) {
		if n, ok := o.vals["nullable"].(bool); ok {
			o.del("nullable")
			if n {
				addNull(o)
			}
			c.add(at, markNote, "OpenAPI 3.0 nullable became \"null\" in type (2020-12)")
		}
		if ex, ok := o.get("example"); ok && !o.has("examples") {
			o.rename("example", "examples")
			o.set("examples", []any{ex})
		}
	})
	return v
}

// addNull lets a schema accept null.
func addNull(o *object) {
	switch t := o.vals["type"].(type) {
	case string:
		o.set("type", []any{t, "null"})
	case []any:
		if !slices.Contains(t, any("null")) {
			o.set("type", append(slices.Clone(t), "null"))
		}
	}
	if e, ok := o.vals["enum"].([]any); ok && !slices.Contains(e, nil) {
		o.set("enum", append(slices.Clone(e), nil))
	}
}

// walkSchemas calls f on every schema object in v, parents first.
func walkSchemas(v any, ptr string, f func(o *object, ptr string)) {
	o, ok := v.(*object)
	if !ok {
		return
	}
	f(o, ptr)
	for _, k := range slices.Clone(o.keys) {
		at := ptr + "/" + spec.EscapeToken(k)
		sub := o.vals[k]
		switch {
		case slices.Contains(schemaKeywords, k) || k == "items" || k == "additionalItems":
			if list, isList := sub.([]any); isList {
				for i, e := range list {
					walkSchemas(e, fmt.Sprintf("%s/%d", at, i), f)
				}
				continue
			}
			walkSchemas(sub, at, f)
		case slices.Contains(schemaMapKeywords, k) || k == "definitions":
			if m, isObj := sub.(*object); isObj {
				for _, name := range m.keys {
					walkSchemas(m.vals[name], at+"/"+spec.EscapeToken(name), f)
				}
			}
		case slices.Contains(schemaListKeywords, k):
			if list, isList := sub.([]any); isList {
				for i, e := range list {
					walkSchemas(e, fmt.Sprintf("%s/%d", at, i), f)
				}
			}
		}
	}
}
