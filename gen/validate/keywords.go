package validate

import (
	"regexp"
	"sort"
	"strconv"

	"github.com/cetpgen/cetpgen/gen/diag"
	"github.com/cetpgen/cetpgen/gen/internal/schemaref"
	"github.com/cetpgen/cetpgen/gen/spec"
	"github.com/cetpgen/cetpgen/runtime/nearmatch"
)

// keywords2020 are the keywords of every JSON Schema 2020-12 vocabulary
// (core, applicator, unevaluated, validation, meta-data, format-annotation
// and content). A key outside this set is ignored by every validator, so a
// misspelt keyword constrains nothing.
var keywords2020 = map[string]bool{
	"$schema": true, "$id": true, "$ref": true, "$anchor": true, "$dynamicRef": true,
	"$dynamicAnchor": true, "$vocabulary": true, "$comment": true, "$defs": true,
	"allOf": true, "anyOf": true, "oneOf": true, "not": true, "if": true, "then": true, "else": true,
	"dependentSchemas": true, "prefixItems": true, "items": true, "contains": true,
	"properties": true, "patternProperties": true, "additionalProperties": true, "propertyNames": true,
	"unevaluatedItems": true, "unevaluatedProperties": true,
	"type": true, "enum": true, "const": true, "multipleOf": true, "maximum": true,
	"exclusiveMaximum": true, "minimum": true, "exclusiveMinimum": true, "maxLength": true,
	"minLength": true, "pattern": true, "maxItems": true, "minItems": true, "uniqueItems": true,
	"maxContains": true, "minContains": true, "maxProperties": true, "minProperties": true,
	"required": true, "dependentRequired": true,
	"title": true, "description": true, "default": true, "deprecated": true, "readOnly": true,
	"writeOnly": true, "examples": true, "format": true,
	"contentEncoding": true, "contentMediaType": true, "contentSchema": true,
}

// schemaLints are the checks of one tool schema that JSON Schema itself
// does not make: unknown keywords (warnings) and required members that
// additionalProperties: false forbids (errors).
func schemaLints(doc *spec.Doc, ptr string, v any) diag.List {
	var l diag.List
	schemaref.Walk(v, ptr, func(obj map[string]any, at string) {
		l.Add(unknownKeywords(doc, obj, at)...)
		l.Add(impossibleRequired(doc, obj, at)...)
	})
	return l
}

// unknownKeywords warns about each key that no 2020-12 vocabulary defines,
// naming the keyword it most likely misspells.
func unknownKeywords(doc *spec.Doc, obj map[string]any, ptr string) diag.List {
	var l diag.List
	if allKeywords(obj) {
		return l
	}
	for _, k := range sortedKeys(obj) {
		if keywords2020[k] {
			continue
		}
		hint := ""
		if near := nearest(k, sortedKeys(keywords2020)); near != "" {
			hint = "; did you mean " + near + "?"
		}
		l.Warnf(doc.KeyPos(ptr+"/"+spec.EscapeToken(k)), "unknown-keyword",
			"%q is not a JSON Schema 2020-12 keyword, so it constrains nothing%s", k, hint)
	}
	return l
}

// allKeywords reports whether every key of obj is a 2020-12 keyword, as
// nearly every schema's are: unknownKeywords then sorts nothing.
func allKeywords(obj map[string]any) bool {
	for k := range obj {
		if !keywords2020[k] {
			return false
		}
	}
	return true
}

// impossibleRequired reports each required name that the same schema's
// additionalProperties: false rejects: no object can then be valid, so no
// Consumer can ever send (or a Provider return) one.
func impossibleRequired(doc *spec.Doc, obj map[string]any, ptr string) diag.List {
	var l diag.List
	if obj["additionalProperties"] != false {
		return l
	}
	props, _ := obj["properties"].(map[string]any)
	patterns := compilePatterns(obj["patternProperties"])
	required, _ := obj["required"].([]any)
	for i, r := range required {
		name, _ := r.(string)
		if _, declared := props[name]; declared || patterns.match(name) {
			continue
		}
		l.Errorf(doc.Pos(ptr+"/required/"+strconv.Itoa(i)), "required-impossible",
			"%q is required but not declared in properties, and additionalProperties: false rejects it, so no object is valid; declare it or remove it from required", name)
	}
	return l
}

// patternSet is a schema's patternProperties, compiled where Go's regexp
// can (an ECMA-only pattern counts as matching anything: unknown is never
// reported as impossible).
type patternSet struct {
	res     []*regexp.Regexp
	unknown bool
}

func compilePatterns(v any) patternSet {
	var s patternSet
	members, _ := v.(map[string]any)
	for p := range members {
		re, err := regexp.Compile(p)
		if err != nil {
			s.unknown = true
			continue
		}
		s.res = append(s.res, re)
	}
	return s
}

func (s patternSet) match(name string) bool {
	if s.unknown {
		return true
	}
	for _, re := range s.res {
		if re.MatchString(name) {
			return true
		}
	}
	return false
}

// nearest returns the candidate within two edits of k (a changed case
// counts as an edit), or "" when there is none or the nearest is
// ambiguous.
func nearest(k string, candidates []string) string {
	best, bestDist, tie := "", 3, false
	for _, kw := range candidates {
		d := nearmatch.Distance(k, kw)
		switch {
		case d < bestDist:
			best, bestDist, tie = kw, d, false
		case d == bestDist:
			tie = true
		}
	}
	if tie {
		return ""
	}
	return best
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
