package golang

import (
	"encoding/json"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// schemaDoc is one schema document being mapped: a tool's input or
// output schema, with the named types of the $ref targets seen so far.
type schemaDoc struct {
	root any
	// base is the tool's Go name, the prefix of its $defs types.
	base string
	tool string
	refs map[string]gotype
	busy map[string]bool
}

// newSchemaDoc starts mapping one schema document of a tool.
func newSchemaDoc(root any, base, tool string) *schemaDoc {
	return &schemaDoc{root: root, base: base, tool: tool, refs: map[string]gotype{}, busy: map[string]bool{}}
}

// resolve turns a local $ref into a JSON pointer into the document:
// "#", "#/json/pointer" (percent-decoded) and "#anchor". References to
// other resources (embedded $id) are not resolved: their members map to
// raw JSON and stay checked by the runtime.
func (d *schemaDoc) resolve(ref string) (string, bool) {
	if !strings.HasPrefix(ref, "#") {
		return "", false
	}
	frag, err := url.PathUnescape(ref[1:])
	if err != nil {
		return "", false
	}
	if frag == "" || strings.HasPrefix(frag, "/") {
		_, ok := d.at(frag)
		return frag, ok
	}
	return findAnchor(d.root, "", frag)
}

// at returns the value at a JSON pointer.
func (d *schemaDoc) at(ptr string) (any, bool) {
	v := d.root
	if ptr == "" {
		return v, true
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch c := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = c[tok]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			v = c[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// findAnchor returns the pointer of the subschema whose $anchor is name,
// visiting members in sorted order so the first match is deterministic.
func findAnchor(v any, ptr, name string) (string, bool) {
	switch c := v.(type) {
	case map[string]any:
		if c["$anchor"] == name {
			return ptr, true
		}
		for _, k := range slices.Sorted(maps.Keys(c)) {
			if p, ok := findAnchor(c[k], ptr+"/"+escapePtr(k), name); ok {
				return p, true
			}
		}
	case []any:
		for i, e := range c {
			if p, ok := findAnchor(e, ptr+"/"+strconv.Itoa(i), name); ok {
				return p, true
			}
		}
	}
	return "", false
}

// escapePtr encodes a member name as a JSON pointer token.
func escapePtr(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// deref follows $ref chains (at most 32 steps) to a schema that is not a
// bare reference.
func (d *schemaDoc) deref(s any) any {
	for range 32 {
		obj, ok := s.(map[string]any)
		ref, isRef := obj["$ref"].(string)
		if !ok || !isRef {
			return s
		}
		ptr, ok := d.resolve(ref)
		if !ok {
			return s
		}
		s, _ = d.at(ptr)
	}
	return s
}

// jsonType is the JSON Schema type of a decoded value.
func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		if strings.ContainsAny(string(x), ".eE") {
			return "number"
		}
		return "integer"
	case []any:
		return "array"
	}
	return "object"
}

// typesOf returns the non-null types a schema allows, from "type" or
// inferred from enum, const and the object or array keywords, and
// whether null is allowed.
func typesOf(obj map[string]any) (types []string, nullable bool) {
	var all []string
	switch t := obj["type"].(type) {
	case string:
		all = []string{t}
	case []any:
		for _, e := range t {
			if s, ok := e.(string); ok {
				all = append(all, s)
			}
		}
	default:
		all = inferTypes(obj)
	}
	for _, t := range all {
		if t == "null" {
			nullable = true
		} else if !slices.Contains(types, t) {
			types = append(types, t)
		}
	}
	return types, nullable || enumHasNull(obj)
}

// inferTypes infers the types of a schema without "type".
func inferTypes(obj map[string]any) []string {
	if vals, ok := obj["enum"].([]any); ok {
		var out []string
		for _, v := range vals {
			out = append(out, jsonType(v))
		}
		return out
	}
	if c, ok := obj["const"]; ok {
		return []string{jsonType(c)}
	}
	for _, k := range []string{"properties", "additionalProperties", "required", "patternProperties"} {
		if _, ok := obj[k]; ok {
			return []string{"object"}
		}
	}
	if _, ok := obj["items"]; ok {
		return []string{"array"}
	}
	return nil
}

// enumHasNull reports whether an enum lists null.
func enumHasNull(obj map[string]any) bool {
	vals, _ := obj["enum"].([]any)
	return slices.Contains(vals, any(nil))
}

// isNullSchema reports whether a schema allows only null.
func isNullSchema(s any) bool {
	obj, ok := s.(map[string]any)
	if !ok {
		return false
	}
	types, nullable := typesOf(obj)
	return nullable && len(types) == 0
}

// nullable reports whether a schema allows null, following references
// and the [T, null] union forms.
func (d *schemaDoc) nullable(s any) bool {
	obj, ok := d.deref(s).(map[string]any)
	if !ok {
		return s == true
	}
	if _, nullable := typesOf(obj); nullable {
		return true
	}
	for _, kw := range []string{"oneOf", "anyOf"} {
		branches, _ := obj[kw].([]any)
		if slices.ContainsFunc(branches, isNullSchema) {
			return true
		}
	}
	return false
}

// requiredSet returns the members a schema requires.
func requiredSet(obj map[string]any) map[string]bool {
	out := map[string]bool{}
	req, _ := obj["required"].([]any)
	for _, r := range req {
		if s, ok := r.(string); ok {
			out[s] = true
		}
	}
	return out
}

// stringEnum returns the string values of an enum whose values are all
// strings (null aside), or nil.
func stringEnum(obj map[string]any) []string {
	vals, _ := obj["enum"].([]any)
	var out []string
	for _, v := range vals {
		switch s := v.(type) {
		case string:
			out = append(out, s)
		case nil:
		default:
			return nil
		}
	}
	return out
}
