package diff

import (
	"maps"
	"slices"

	"github.com/cetpgen/cetpgen/gen/internal/schemaref"
)

// Mode is the reading of a schema's contract that a comparison keeps.
type Mode string

// The contract modes. Containment counts every instance a schema accepts.
// Declared counts only the instances whose object members are declared:
// where an object schema lists its properties and leaves
// additionalProperties open, the undeclared members are not part of the
// contract, because no Consumer generated from the schema, and no agent
// filling the declared properties, sends them.
const (
	Containment Mode = "containment"
	Declared    Mode = "declared"
)

// DefaultMode is the mode of a run that names none (docs/diff.md argues
// the choice).
const DefaultMode = Declared

// Modes lists the contract modes, for flags and messages.
var Modes = []Mode{Containment, Declared}

// ValidMode reports whether s names a contract mode.
func ValidMode(s string) bool { return slices.Contains(Modes, Mode(s)) }

// DeclaredReading returns a copy of a schema (decoded JSON) in which every
// object schema that declares properties and says nothing about other
// members is closed with additionalProperties: false. An instance is
// counted by Declared mode exactly when it is valid against this reading.
//
// A schema is left open when its members may come from elsewhere: it is a
// member of allOf, anyOf or oneOf, it has one of those itself or $ref,
// if, dependentSchemas, patternProperties or unevaluatedProperties, or it
// is the target of a $ref that is not used on its own. Objects that
// declare no properties (free-form maps) stay open. Only positions that
// constrain instances positively are walked (properties, items,
// additionalProperties, the union members, $defs); not and if are left
// as they are, since closing inside them would widen the schema.
func DeclaredReading(schema any) any {
	d := &declarer{shared: sharedTargets(schema)}
	return d.walk(schema, "", false)
}

// declarer carries the pointers that must not be closed.
type declarer struct {
	shared map[string]bool
}

// openers are the keywords that let members come from somewhere other than
// properties, so that a schema carrying one is never closed.
var openers = []string{
	"additionalProperties", "patternProperties", "unevaluatedProperties", "allOf", "anyOf", "oneOf",
	"$ref", "$dynamicRef", "if", "dependentSchemas",
}

// walk returns the declared reading of v found at ptr; member says whether
// v is a direct member of allOf, anyOf or oneOf.
func (d *declarer) walk(v any, ptr string, member bool) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := maps.Clone(m)
	for _, kw := range []string{"properties", "patternProperties", "$defs", "definitions"} {
		if sub, ok := m[kw].(map[string]any); ok {
			out[kw] = d.walkMap(sub, ptr+"/"+kw)
		}
	}
	for _, kw := range []string{"allOf", "anyOf", "oneOf", "prefixItems"} {
		if sub, ok := m[kw].([]any); ok {
			out[kw] = d.walkList(sub, ptr+"/"+kw, kw != "prefixItems")
		}
	}
	for _, kw := range []string{"items", "additionalProperties"} {
		if sub, ok := m[kw]; ok {
			out[kw] = d.walk(sub, ptr+"/"+kw, false)
		}
	}
	if d.closable(m, ptr, member) {
		out["additionalProperties"] = false
	}
	return out
}

// walkMap walks the schemas of a name-to-schema keyword.
func (d *declarer) walkMap(sub map[string]any, ptr string) map[string]any {
	out := make(map[string]any, len(sub))
	for k, s := range sub {
		out[k] = d.walk(s, ptr+"/"+schemaref.Escape(k), false)
	}
	return out
}

// walkList walks the schemas of a list keyword.
func (d *declarer) walkList(sub []any, ptr string, members bool) []any {
	out := make([]any, len(sub))
	for i, s := range sub {
		out[i] = d.walk(s, ptr+"/"+itoa(i), members)
	}
	return out
}

// closable reports whether the object schema m at ptr declares its
// members completely.
func (d *declarer) closable(m map[string]any, ptr string, member bool) bool {
	if member || d.shared[ptr] {
		return false
	}
	if p, ok := m["properties"].(map[string]any); !ok || len(p) == 0 {
		return false
	}
	for _, kw := range openers {
		if _, ok := m[kw]; ok {
			return false
		}
	}
	return true
}

// sharedTargets returns the pointers of the local $ref targets that some
// reference uses together with other keywords or as a member of a union:
// the target's members may then be completed elsewhere, and it stays open.
func sharedTargets(root any) map[string]bool {
	out := map[string]bool{}
	var visit func(v any, member bool)
	visit = func(v any, member bool) {
		switch x := v.(type) {
		case map[string]any:
			if ref, ok := x["$ref"].(string); ok && (member || !aloneRef(x)) {
				if ptr, ok := refPointer(root, ref); ok {
					out[ptr] = true
				}
			}
			for _, k := range slices.Sorted(maps.Keys(x)) {
				visit(x[k], k == "allOf" || k == "anyOf" || k == "oneOf")
			}
		case []any:
			for _, item := range x {
				visit(item, member)
			}
		}
	}
	visit(root, false)
	return out
}

// aloneRef reports whether a schema with $ref has no other keyword that
// constrains instances.
func aloneRef(m map[string]any) bool {
	for k := range m {
		if k != "$ref" && !annotationOnly[k] {
			return false
		}
	}
	return true
}

// refPointer returns the JSON pointer a local $ref designates.
func refPointer(root any, ref string) (string, bool) {
	t, ok := rootNode(root).resolve(ref)
	return t.ptr, ok
}
