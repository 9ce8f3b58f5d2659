package kotlin

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/cetpgen/cetpgen/gen/ir"
)

// body generates the check of one subschema: a boolean schema, else its
// keywords in the order the annotations need (the applicators that
// evaluate members and items before unevaluatedProperties and
// unevaluatedItems, which come last).
func (sg *schemaGen) body(s *ir.Subschema) (string, error) {
	b := &body{ann: "ev", buf: sg.scratch[:0]}
	defer func() { sg.scratch = b.buf }()
	obj := s.Obj()
	if obj == nil {
		if s.Value == false {
			b.failed = true
			b.line("c.fail(l, ", kotlinString(s.Ptr), ", \"no value is allowed here\")")
			b.line("return false")
			return b.text(), nil
		}
		return b.finish(), nil
	}
	if hasKeyword(obj, "unevaluatedProperties", "unevaluatedItems") {
		b.line("val me = Eval()")
		b.ann, b.annSure = "me", true
	}
	for _, step := range []func(*body, *ir.Subschema, map[string]any) error{
		sg.generic, sg.numeric, sg.str, sg.inPlace, sg.object, sg.array,
	} {
		if err := step(b, s, obj); err != nil {
			return "", err
		}
	}
	return b.finish(), nil
}

// hasKeyword reports whether obj has one of the keywords.
func hasKeyword(obj map[string]any, kws ...string) bool {
	for _, k := range kws {
		if _, ok := obj[k]; ok {
			return true
		}
	}
	return false
}

// generic writes type, enum and const.
func (sg *schemaGen) generic(b *body, s *ir.Subschema, obj map[string]any) error {
	if t, ok := obj["type"]; ok {
		if mask, ok := typeMask(t); ok {
			b.check("V.hasType(e, "+mask+")", kwPtr(s.Ptr, "type"), "want "+typeWords(t))
		}
	}
	if vals, ok := obj["enum"].([]any); ok {
		names := make([]string, len(vals))
		for i, v := range vals {
			n, err := sg.value(v)
			if err != nil {
				return err
			}
			names[i] = n
		}
		list := sg.consts.name(constEnum, "listOf("+strings.Join(names, ", ")+")")
		b.check(list+".any { V.equal(e, it) }", kwPtr(s.Ptr, "enum"), "not one of the allowed values")
	}
	if v, ok := obj["const"]; ok {
		n, err := sg.value(v)
		if err != nil {
			return err
		}
		b.check("V.equal(e, "+n+")", kwPtr(s.Ptr, "const"), "not the constant value")
	}
	return nil
}

// value is the constant holding a JSON value of the schema.
func (sg *schemaGen) value(v any) (string, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("encode a schema value: %w", err)
	}
	return sg.consts.name(constValue, "Json.parseToJsonElement("+kotlinString(string(data))+")"), nil
}

// numericBounds are the number keywords: the comparison that passes and
// the message of a failure.
var numericBounds = []struct{ kw, pass, msg string }{
	{"minimum", ">= 0", "less than the minimum"},
	{"exclusiveMinimum", "> 0", "not greater than the exclusive minimum"},
	{"maximum", "<= 0", "greater than the maximum"},
	{"exclusiveMaximum", "< 0", "not less than the exclusive maximum"},
}

// numeric writes multipleOf and the bounds, exact on BigDecimal.
func (sg *schemaGen) numeric(b *body, s *ir.Subschema, obj map[string]any) error {
	if !hasKeyword(obj, "multipleOf", "minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum") {
		return nil
	}
	n := b.fresh("n")
	b.line("val ", n, " = V.number(e)")
	b.open("if (", n, " != null) {")
	if lit, ok := numberArg(obj["multipleOf"]); ok {
		b.check("V.multipleOf("+n+", "+sg.number(lit)+")", kwPtr(s.Ptr, "multipleOf"), "not a multiple of "+lit)
	}
	for _, nb := range numericBounds {
		if lit, ok := numberArg(obj[nb.kw]); ok {
			b.check(n+".compareTo("+sg.number(lit)+") "+nb.pass, kwPtr(s.Ptr, nb.kw), nb.msg+" "+lit)
		}
	}
	b.close()
	return nil
}

// number is the constant holding an exact number of the schema.
func (sg *schemaGen) number(lit string) string {
	return sg.consts.name(constNumber, "BigDecimal("+kotlinString(lit)+")")
}

// pattern is the constant holding a compiled pattern of the schema.
func (sg *schemaGen) pattern(p string) (string, error) {
	java, err := javaRegex(p)
	if err != nil {
		return "", err
	}
	return sg.consts.name(constPattern, "Pattern.compile("+kotlinString(java)+")"), nil
}

// str writes minLength, maxLength (in code points) and pattern.
func (sg *schemaGen) str(b *body, s *ir.Subschema, obj map[string]any) error {
	if !hasKeyword(obj, "minLength", "maxLength", "pattern") {
		return nil
	}
	v := b.fresh("s")
	b.line("val ", v, " = V.string(e)")
	b.open("if (", v, " != null) {")
	if n, ok := sizeArg(obj["minLength"]); ok && n > 0 {
		b.check("V.length("+v+") >= "+dec(n), kwPtr(s.Ptr, "minLength"), "shorter than "+dec(n)+" characters")
	}
	if n, ok := sizeArg(obj["maxLength"]); ok {
		b.check("V.length("+v+") <= "+dec(n), kwPtr(s.Ptr, "maxLength"), "longer than "+dec(n)+" characters")
	}
	if p, ok := obj["pattern"].(string); ok {
		name, err := sg.pattern(p)
		if err != nil {
			return fmt.Errorf("%s: %w", kwPtr(s.Ptr, "pattern"), err)
		}
		b.check(name+".matcher("+v+").find()", kwPtr(s.Ptr, "pattern"), "does not match the pattern "+p)
	}
	b.close()
	return nil
}

// call is the call of subschema t's function on value at loc with the
// annotations ann.
func (sg *schemaGen) call(t *ir.Subschema, value, loc, ann string) string {
	return sg.fn(t) + "(" + value + ", " + loc + ", c, " + ann + ")"
}

// child is the subschema below s at the tokens, which the graph lists.
func (sg *schemaGen) child(s *ir.Subschema, tokens ...string) (*ir.Subschema, error) {
	c := sg.idx.at(s, tokens...)
	if c == nil {
		return nil, fmt.Errorf("%s: no subschema at %v in the schema graph", s.Ptr, tokens)
	}
	return c, nil
}

// list returns the subschemas of a list applicator (allOf, prefixItems).
func (sg *schemaGen) list(s *ir.Subschema, kw string) ([]*ir.Subschema, error) {
	items, _ := s.Obj()[kw].([]any)
	out := make([]*ir.Subschema, len(items))
	for i := range items {
		c, err := sg.child(s, kw, strconv.Itoa(i))
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

// sortedKeys lists a map keyword's member names in order.
func sortedKeys(obj map[string]any, kw string) []string {
	m, _ := obj[kw].(map[string]any)
	return slices.Sorted(maps.Keys(m))
}

// inPlace writes $ref and the applicators evaluated at the instance's own
// location: allOf, anyOf, oneOf, not, if-then-else. Annotations of a
// branch count only when it succeeds.
func (sg *schemaGen) inPlace(b *body, s *ir.Subschema, obj map[string]any) error {
	if s.Ref != nil {
		b.sub(sg.call(s.Ref, "e", "l", b.ann))
	}
	all, err := sg.list(s, "allOf")
	if err != nil {
		return err
	}
	for _, t := range all {
		b.sub(sg.call(t, "e", "l", b.ann))
	}
	for _, kw := range []string{"anyOf", "oneOf"} {
		branches, err := sg.list(s, kw)
		if err != nil {
			return err
		}
		if len(branches) > 0 {
			sg.branches(b, s, kw, branches)
		}
	}
	if _, ok := obj["not"]; ok {
		t, err := sg.child(s, "not")
		if err != nil {
			return err
		}
		b.check("!c.quietly { "+sg.call(t, "e", "l", "null")+" }", kwPtr(s.Ptr, "not"), "matches the schema of not")
	}
	if _, ok := obj["if"]; ok {
		return sg.conditional(b, s, obj)
	}
	return nil
}

// branches writes anyOf (some branch succeeds) or oneOf (exactly one
// does), evaluating every branch so that each successful one's
// annotations count.
func (sg *schemaGen) branches(b *body, s *ir.Subschema, kw string, ts []*ir.Subschema) {
	count := b.fresh("n")
	b.line("var ", count, " = 0")
	for _, t := range ts {
		x := b.fresh("x")
		b.line("val ", x, " = V.sub(", b.ann, ")")
		b.open("if (c.quietly { ", sg.call(t, "e", "l", x), " }) {")
		b.line(count, "++")
		b.annotate("merge(" + x + ")")
		b.close()
	}
	if kw == "anyOf" {
		b.check(count+" > 0", kwPtr(s.Ptr, kw), "matches none of the schemas of anyOf")
		return
	}
	b.check(count+" == 1", kwPtr(s.Ptr, kw), "does not match exactly one of the schemas of oneOf")
}

// conditional writes if-then-else.
func (sg *schemaGen) conditional(b *body, s *ir.Subschema, obj map[string]any) error {
	cond, err := sg.child(s, "if")
	if err != nil {
		return err
	}
	x := b.fresh("x")
	b.line("val ", x, " = V.sub(", b.ann, ")")
	b.open("if (c.quietly { ", sg.call(cond, "e", "l", x), " }) {")
	b.annotate("merge(" + x + ")")
	for _, kw := range []string{"then", "else"} {
		if _, ok := obj[kw]; ok {
			t, err := sg.child(s, kw)
			if err != nil {
				return err
			}
			if kw == "else" {
				b.depth--
				b.open("} else {")
			}
			b.sub(sg.call(t, "e", "l", b.ann))
		} else if kw == "else" {
			break
		}
	}
	b.close()
	return nil
}
