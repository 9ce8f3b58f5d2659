package schemaref

import (
	"slices"
	"strconv"
)

// The 2020-12 keywords whose values hold subschemas: a map of them, one,
// or a list. Every other keyword holds data (enum, const, default,
// examples, unknown keywords), which is never searched for schemas.
var (
	mapKeywords  = []string{"$defs", "definitions", "dependentSchemas", "patternProperties", "properties"}
	oneKeywords  = []string{"additionalProperties", "contains", "contentSchema", "else", "if", "items", "not", "propertyNames", "then", "unevaluatedItems", "unevaluatedProperties"}
	listKeywords = []string{"allOf", "anyOf", "oneOf", "prefixItems"}
)

// Each calls f for each subschema directly under obj, whose pointer is
// ptr, in a fixed order: map keywords by name with their members by name,
// then single-schema keywords by name, then list keywords with their items
// by index.
func Each(obj map[string]any, ptr string, f func(sub any, subPtr string)) {
	for _, k := range mapKeywords {
		m, _ := obj[k].(map[string]any)
		if len(m) == 0 {
			continue
		}
		for _, name := range sortedKeys(m) {
			f(m[name], ptr+"/"+k+"/"+Escape(name))
		}
	}
	for _, k := range oneKeywords {
		if sub, ok := obj[k]; ok {
			f(sub, ptr+"/"+k)
		}
	}
	for _, k := range listKeywords {
		list, _ := obj[k].([]any)
		for i, sub := range list {
			f(sub, ptr+"/"+k+"/"+strconv.Itoa(i))
		}
	}
}

// Walk calls visit for the schema v at ptr, when it is an object, and
// for every object subschema below it, parents first, in Each's order.
func Walk(v any, ptr string, visit func(obj map[string]any, ptr string)) {
	obj, ok := v.(map[string]any)
	if !ok {
		return
	}
	visit(obj, ptr)
	Each(obj, ptr, func(sub any, subPtr string) { Walk(sub, subPtr, visit) })
}

// sortedKeys returns the keys of m in order, in a slice allocated once at
// its final size.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
