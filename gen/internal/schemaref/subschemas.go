package schemaref

import (
	"math/bits"
	"slices"
	"strconv"
)

// keywords are the 2020-12 keywords whose values hold subschemas, in the
// order Each visits them: those holding a map of subschemas by name, then
// those holding one, then those holding a list. Every other keyword holds
// data (enum, const, default, examples, unknown keywords), which is never
// searched for schemas.
var keywords = [...]string{
	"$defs", "definitions", "dependentSchemas", "patternProperties", "properties",
	"additionalProperties", "contains", "contentSchema", "else", "if", "items", "not", "propertyNames", "then", "unevaluatedItems", "unevaluatedProperties",
	"allOf", "anyOf", "oneOf", "prefixItems",
}

// Where each form of keyword starts in keywords.
const (
	firstOne  = 5
	firstList = 16
)

// keywordIndex is k's index in keywords, or -1 when it holds no
// subschema; a switch, since it runs for every member of every schema.
func keywordIndex(k string) int {
	switch k {
	case "$defs":
		return 0
	case "definitions":
		return 1
	case "dependentSchemas":
		return 2
	case "patternProperties":
		return 3
	case "properties":
		return 4
	case "additionalProperties":
		return 5
	case "contains":
		return 6
	case "contentSchema":
		return 7
	case "else":
		return 8
	case "if":
		return 9
	case "items":
		return 10
	case "not":
		return 11
	case "propertyNames":
		return 12
	case "then":
		return 13
	case "unevaluatedItems":
		return 14
	case "unevaluatedProperties":
		return 15
	case "allOf":
		return 16
	case "anyOf":
		return 17
	case "oneOf":
		return 18
	case "prefixItems":
		return 19
	}
	return -1
}

// Each calls f for each subschema directly under obj, whose pointer is
// ptr, in a fixed order: map keywords by name with their members by name,
// then single-schema keywords by name, then list keywords with their items
// by index. It reads obj's members once, rather than looking up every
// keyword.
func Each(obj map[string]any, ptr string, f func(sub any, subPtr string)) {
	var present uint32
	for k := range obj {
		if i := keywordIndex(k); i >= 0 {
			present |= 1 << i
		}
	}
	for present != 0 {
		i := bits.TrailingZeros32(present)
		present &= present - 1
		k := keywords[i]
		switch v := obj[k]; {
		case i < firstOne:
			m, _ := v.(map[string]any)
			var buf [16]string // the names of most maps, without allocating
			prefix := ptr + "/" + k + "/"
			for _, name := range appendSortedKeys(buf[:0], m) {
				f(m[name], prefix+Escape(name))
			}
		case i < firstList:
			f(v, ptr+"/"+k)
		default:
			list, _ := v.([]any)
			for j, sub := range list {
				f(sub, ptr+"/"+k+"/"+strconv.Itoa(j))
			}
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

// appendSortedKeys appends the keys of m to keys, sorted.
func appendSortedKeys(keys []string, m map[string]any) []string {
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
