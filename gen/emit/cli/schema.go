package cli

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/cetpgen/cetpgen/runtime/cetpcli"
)

// structural are the keywords that make a property more than a scalar:
// such a property is passed as JSON.
var structural = []string{"$ref", "$dynamicRef", "oneOf", "anyOf", "allOf", "not", "if", "then", "else", "const", "prefixItems"}

// object returns s as a JSON Schema object, or nil.
func object(s any) map[string]any {
	m, _ := s.(map[string]any)
	return m
}

// inputProperties returns the property names of an input schema in order,
// their schemas and the required set.
func inputProperties(s any) ([]string, map[string]any, map[string]bool) {
	m := object(s)
	props := object(m["properties"])
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	slices.Sort(names)
	req := map[string]bool{}
	list, _ := m["required"].([]any)
	for _, r := range list {
		if n, ok := r.(string); ok {
			req[n] = true
		}
	}
	return names, props, req
}

// singleType is the schema's one non-null type, or "".
func singleType(m map[string]any) string {
	switch t := m["type"].(type) {
	case string:
		return t
	case []any:
		var out []string
		for _, x := range t {
			if s, ok := x.(string); ok && s != "null" {
				out = append(out, s)
			}
		}
		if len(out) == 1 {
			return out[0]
		}
	}
	return ""
}

// scalarKind is the flag kind of a scalar schema m (resolved); ok is
// false for any other schema.
func scalarKind(m map[string]any) (k cetpcli.Kind, enum []string, ok bool) {
	if m == nil || hasAny(m, structural) {
		return "", nil, false
	}
	t := singleType(m)
	if enum, ok := stringEnum(m["enum"]); ok && (t == "" || t == "string") {
		return cetpcli.Enum, enum, true
	}
	k, ok = map[string]cetpcli.Kind{"string": cetpcli.String, "integer": cetpcli.Integer,
		"number": cetpcli.Number, "boolean": cetpcli.Boolean}[t]
	return k, nil, ok
}

// flagKind is the kind of the flag of a property schema m (resolved): a
// scalar, a list of scalars, else JSON.
func (r resolver) flagKind(m map[string]any) (k cetpcli.Kind, list bool, enum []string) {
	if k, enum, ok := scalarKind(m); ok {
		return k, false, enum
	}
	if m != nil && !hasAny(m, structural) && singleType(m) == "array" {
		if k, enum, ok := scalarKind(r.view(m["items"])); ok {
			return k, true, enum
		}
	}
	return cetpcli.JSON, false, nil
}

func hasAny(m map[string]any, keys []string) bool {
	for _, k := range keys {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

// stringEnum returns the values of an enum made of strings only.
func stringEnum(e any) ([]string, bool) {
	list, _ := e.([]any)
	out := make([]string, 0, len(list))
	for _, v := range list {
		s, ok := v.(string)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, len(out) > 0
}

// text returns the string keyword key of m with runs of white space
// collapsed, or "".
func text(m map[string]any, key string) string {
	s, _ := m[key].(string)
	return strings.Join(strings.Fields(s), " ")
}

// scalarText renders a scalar JSON value as a flag would take it, or "".
func scalarText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return string(x)
	case bool:
		if x {
			return "true"
		}
		return "false"
	}
	return ""
}
