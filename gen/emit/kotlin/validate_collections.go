package kotlin

import (
	"fmt"
	"strings"

	"github.com/cetpgen/cetpgen/gen/ir"
)

// object writes the object keywords: required, the member counts,
// dependentRequired, dependentSchemas, propertyNames, properties,
// patternProperties, additionalProperties and, last, unevaluatedProperties.
func (sg *schemaGen) object(b *body, s *ir.Subschema, obj map[string]any) error {
	if !hasKeyword(obj, "required", "minProperties", "maxProperties", "dependentRequired", "dependentSchemas",
		"propertyNames", "properties", "patternProperties", "additionalProperties", "unevaluatedProperties") {
		return nil
	}
	b.open("if (e is JsonObject) {")
	sg.counts(b, s, obj)
	if err := sg.dependent(b, s, obj); err != nil {
		return err
	}
	if _, ok := obj["propertyNames"]; ok {
		t, err := sg.child(s, "propertyNames")
		if err != nil {
			return err
		}
		b.open("for (k in e.keys) {")
		b.sub(sg.call(t, "JsonPrimitive(k)", "l.at(k)", "null"))
		b.close()
	}
	if err := sg.members(b, s, obj); err != nil {
		return err
	}
	if _, ok := obj["unevaluatedProperties"]; ok {
		t, err := sg.child(s, "unevaluatedProperties")
		if err != nil {
			return err
		}
		b.open("for ((k, v) in e) {")
		b.open("if (!me.hasProp(k)) {")
		b.sub(sg.call(t, "v", "l.at(k)", "null"))
		b.line("me.prop(k)")
		b.close()
		b.close()
	}
	b.close()
	return nil
}

// counts writes required, minProperties and maxProperties.
func (sg *schemaGen) counts(b *body, s *ir.Subschema, obj map[string]any) {
	req, _ := obj["required"].([]any)
	for _, r := range req {
		if name, ok := r.(string); ok {
			b.check("e.containsKey("+kotlinString(name)+")", kwPtr(s.Ptr, "required"), "missing the required property "+name)
		}
	}
	if n, ok := sizeArg(obj["minProperties"]); ok && n > 0 {
		b.check("e.size >= "+dec(n), kwPtr(s.Ptr, "minProperties"), "fewer than "+dec(n)+" properties")
	}
	if n, ok := sizeArg(obj["maxProperties"]); ok {
		b.check("e.size <= "+dec(n), kwPtr(s.Ptr, "maxProperties"), "more than "+dec(n)+" properties")
	}
}

// dependent writes dependentRequired and dependentSchemas (in place).
func (sg *schemaGen) dependent(b *body, s *ir.Subschema, obj map[string]any) error {
	dr, _ := obj["dependentRequired"].(map[string]any)
	for _, k := range sortedKeys(obj, "dependentRequired") {
		need, _ := dr[k].([]any)
		for _, n := range need {
			if name, ok := n.(string); ok {
				b.check("!e.containsKey("+kotlinString(k)+") || e.containsKey("+kotlinString(name)+")",
					kwPtr(s.Ptr, "dependentRequired"), "has "+k+" without "+name)
			}
		}
	}
	for _, k := range sortedKeys(obj, "dependentSchemas") {
		t, err := sg.child(s, "dependentSchemas", k)
		if err != nil {
			return err
		}
		b.open("if (e.containsKey(", kotlinString(k), ")) {")
		b.sub(sg.call(t, "e", "l", b.ann))
		b.close()
	}
	return nil
}

// members writes properties, patternProperties and additionalProperties:
// declared members by name, then one pass over the members for the
// patterns and the rest.
func (sg *schemaGen) members(b *body, s *ir.Subschema, obj map[string]any) error {
	props := sortedKeys(obj, "properties")
	for _, name := range props {
		t, err := sg.child(s, "properties", name)
		if err != nil {
			return err
		}
		v := b.fresh("p")
		b.line("val ", v, " = e[", kotlinString(name), "]")
		b.open("if (", v, " != null) {")
		b.annotate("prop(" + kotlinString(name) + ")")
		b.sub(sg.call(t, v, "l.at("+kotlinString(name)+")", "null"))
		b.close()
	}
	patterns := sortedKeys(obj, "patternProperties")
	_, additional := obj["additionalProperties"]
	if len(patterns) == 0 && !additional {
		return nil
	}
	b.open("for ((k, v) in e) {")
	known := ""
	if additional && len(props) > 0 {
		quoted := make([]string, len(props))
		for i, p := range props {
			quoted[i] = kotlinString(p)
		}
		known = sg.consts.name(constNames, "setOf("+strings.Join(quoted, ", ")+")")
	}
	if additional && len(patterns) > 0 {
		if known == "" {
			b.line("var matched = false")
		} else {
			b.line("var matched = k in ", known)
		}
	}
	for _, p := range patterns {
		t, err := sg.child(s, "patternProperties", p)
		if err != nil {
			return err
		}
		re, err := sg.pattern(p)
		if err != nil {
			return fmt.Errorf("%s: %w", kwPtr(s.Ptr, "patternProperties"), err)
		}
		b.open("if (", re, ".matcher(k).find()) {")
		if additional {
			b.line("matched = true")
		}
		b.annotate("prop(k)")
		b.sub(sg.call(t, "v", "l.at(k)", "null"))
		b.close()
	}
	if additional {
		t, err := sg.child(s, "additionalProperties")
		if err != nil {
			return err
		}
		guarded := len(patterns) > 0 || known != ""
		switch {
		case len(patterns) > 0:
			b.open("if (!matched) {")
		case known != "":
			b.open("if (k !in ", known, ") {")
		}
		b.annotate("prop(k)")
		b.sub(sg.call(t, "v", "l.at(k)", "null"))
		if guarded {
			b.close()
		}
	}
	b.close()
	return nil
}

// array writes the array keywords: the item counts, uniqueItems,
// prefixItems, items, contains with its bounds and, last,
// unevaluatedItems.
func (sg *schemaGen) array(b *body, s *ir.Subschema, obj map[string]any) error {
	if !hasKeyword(obj, "minItems", "maxItems", "uniqueItems", "prefixItems", "items", "contains", "unevaluatedItems") {
		return nil
	}
	b.open("if (e is JsonArray) {")
	if n, ok := sizeArg(obj["minItems"]); ok && n > 0 {
		b.check("e.size >= "+dec(n), kwPtr(s.Ptr, "minItems"), "fewer than "+dec(n)+" items")
	}
	if n, ok := sizeArg(obj["maxItems"]); ok {
		b.check("e.size <= "+dec(n), kwPtr(s.Ptr, "maxItems"), "more than "+dec(n)+" items")
	}
	if obj["uniqueItems"] == true {
		b.check("V.unique(e)", kwPtr(s.Ptr, "uniqueItems"), "has equal items")
	}
	if err := sg.items(b, s, obj); err != nil {
		return err
	}
	if err := sg.contains(b, s, obj); err != nil {
		return err
	}
	if _, ok := obj["unevaluatedItems"]; ok {
		t, err := sg.child(s, "unevaluatedItems")
		if err != nil {
			return err
		}
		b.open("for (i in e.indices) {")
		b.open("if (!me.hasItem(i)) {")
		b.sub(sg.call(t, "e[i]", "l.at(i)", "null"))
		b.close()
		b.close()
		b.line("me.items(0, e.size)")
	}
	b.close()
	return nil
}

// items writes prefixItems (one call per position) and items (every
// later item).
func (sg *schemaGen) items(b *body, s *ir.Subschema, obj map[string]any) error {
	prefix, err := sg.list(s, "prefixItems")
	if err != nil {
		return err
	}
	for i, t := range prefix {
		b.open("if (e.size > ", dec(i), ") {")
		b.sub(sg.call(t, "e["+dec(i)+"]", "l.at("+dec(i)+")", "null"))
		b.close()
	}
	if len(prefix) > 0 {
		b.annotate("items(0, minOf(" + dec(len(prefix)) + ", e.size))")
	}
	if _, ok := obj["items"]; !ok {
		return nil
	}
	t, err := sg.child(s, "items")
	if err != nil {
		return err
	}
	b.open("for (i in ", dec(len(prefix)), " until e.size) {")
	b.sub(sg.call(t, "e[i]", "l.at(i)", "null"))
	b.close()
	b.annotate("items(0, e.size)")
	return nil
}

// contains writes contains with minContains and maxContains: it counts
// the matching items, each of which is evaluated.
func (sg *schemaGen) contains(b *body, s *ir.Subschema, obj map[string]any) error {
	if _, ok := obj["contains"]; !ok {
		return nil
	}
	t, err := sg.child(s, "contains")
	if err != nil {
		return err
	}
	n := b.fresh("n")
	b.line("var ", n, " = 0")
	b.open("for (i in e.indices) {")
	b.open("if (c.quietly { ", sg.call(t, "e[i]", "l.at(i)", "null"), " }) {")
	b.line(n, "++")
	b.annotate("items(i, i + 1)")
	b.close()
	b.close()
	lo, hasMin := sizeArg(obj["minContains"])
	if !hasMin {
		lo = 1
	}
	if lo > 0 {
		kw := "contains"
		if hasMin {
			kw = "minContains"
		}
		b.check(n+" >= "+dec(lo), kwPtr(s.Ptr, kw), "fewer than "+dec(lo)+" items match the schema of contains")
	}
	if hi, ok := sizeArg(obj["maxContains"]); ok {
		b.check(n+" <= "+dec(hi), kwPtr(s.Ptr, "maxContains"), "more than "+dec(hi)+" items match the schema of contains")
	}
	return nil
}
