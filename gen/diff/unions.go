package diff

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cetpgen/cetpgen/gen/ir"
)

// decided are the keywords whose containment the checker reasons about.
var decided = map[string]bool{
	"type": true, "enum": true, "const": true, "properties": true, "required": true,
	"additionalProperties": true, "items": true, "minimum": true, "maximum": true,
	"exclusiveMinimum": true, "exclusiveMaximum": true, "multipleOf": true,
	"minLength": true, "maxLength": true, "pattern": true, "format": true,
	"minItems": true, "maxItems": true, "uniqueItems": true,
	"minProperties": true, "maxProperties": true,
	"$ref": true, "allOf": true, "anyOf": true, "oneOf": true,
}

// onlyRestrict are keywords that can only remove instances from the schema
// that carries them: on the narrow side alone they never break
// containment.
var onlyRestrict = map[string]bool{
	"not": true, "if": true, "then": true, "else": true, "propertyNames": true,
	"dependentRequired": true, "dependentSchemas": true, "contains": true,
	"minContains": true, "maxContains": true,
}

// undecidedKeywords records every keyword outside the decided set that the
// two sides do not write identically, unless it only restricts the narrow
// side.
func (c *checker) undecidedKeywords(wide, narrow node) {
	for _, kw := range unionKeys(wide.obj(), narrow.obj()) {
		if decided[kw] || annotationOnly[kw] {
			continue
		}
		wv, inW := wide.kw(kw)
		nv, inN := narrow.kw(kw)
		if inW && inN && jsonEqual(wv, nv) && !hasRef(wv) {
			continue
		}
		if !inW && onlyRestrict[kw] {
			continue
		}
		c.unknown(wide, narrow, kw, "the keyword is not compared structurally and differs between the old and new schema")
	}
}

// unions handles allOf, anyOf and oneOf on either side. It reports true
// when it has decided (or recorded as undecided) the whole pair.
func (c *checker) unions(wide, narrow node) bool {
	for _, kw := range []string{"anyOf", "oneOf", "allOf"} {
		if _, ok := narrow.kw(kw); ok && !sameKeyword(wide, narrow, kw) {
			c.narrowUnion(wide, narrow, kw)
			return true
		}
	}
	for _, kw := range []string{"allOf", "anyOf", "oneOf"} {
		if _, ok := wide.kw(kw); ok && !sameKeyword(wide, narrow, kw) {
			c.wideUnion(wide, narrow, kw)
			return true
		}
	}
	return false
}

// sameKeyword reports whether both sides write keyword kw identically,
// with no $ref inside, so that it constrains both alike.
func sameKeyword(wide, narrow node, kw string) bool {
	wv, inW := wide.kw(kw)
	nv, inN := narrow.kw(kw)
	return inW && inN && jsonEqual(wv, nv) && !hasRef(wv)
}

// branches returns the members of a union keyword as nodes.
func branches(n node, kw string) []node {
	var out []node
	for i, v := range listOf(n.obj()[kw]) {
		out = append(out, n.child(v, kw, itoa(i)))
	}
	return out
}

// narrowUnion decides containment of a narrow side with a union keyword.
// anyOf and oneOf are contained when every branch is; allOf when one
// member (or the rest of the schema) is.
func (c *checker) narrowUnion(wide, narrow node, kw string) {
	rest := narrow.without(kw)
	if kw == "allOf" {
		c.narrowAllOf(wide, narrow, rest)
		return
	}
	bs := branches(narrow, kw)
	exclusive := kw == "oneOf" && !c.pairwiseDisjoint(bs)
	for _, b := range bs {
		c.narrowBranch(wide, rest, b, kw, exclusive)
	}
}

// narrowBranch checks one branch of a narrow anyOf or oneOf, together
// with the rest of its schema (merged when the two constrain different
// keywords). A failing anyOf branch is decided when the merge succeeded or
// there is no rest; a failing oneOf branch too when the oneOf's branches
// are pairwise disjoint (then it is an anyOf), else it is undecided,
// since the other branches may exclude its instances.
func (c *checker) narrowBranch(wide, rest, b node, kw string, exclusive bool) {
	merged, ok := c.merge([]node{b, rest})
	if !ok {
		merged = b
	}
	found := c.try(wide, merged)
	if len(found) == 0 || len(c.try(wide, rest)) == 0 {
		return
	}
	if exclusive || (!ok && !rest.isTrue()) {
		c.unknown(wide, b, kw, fmt.Sprintf("branch %s is not contained on its own (%s), and the other keywords of the schema may exclude it", b.ptr, found[0].Message))
		return
	}
	c.out = append(c.out, found...)
}

// narrowAllOf decides a narrow allOf: it is contained when any member, or
// the schema without it, is; else the members are merged when they do not
// overlap.
func (c *checker) narrowAllOf(wide, narrow, rest node) {
	candidates := append([]node{rest}, branches(narrow, "allOf")...)
	for _, m := range candidates {
		if len(c.try(wide, m)) == 0 {
			return
		}
	}
	merged, ok := c.merge(candidates)
	if !ok {
		c.unknown(wide, narrow, "allOf", "no member is contained alone and the members constrain the same keywords")
		return
	}
	c.check(wide, merged)
}

// merge combines schemas that constrain disjoint keywords (properties and
// required may be shared when the property names differ) into one.
func (c *checker) merge(ns []node) (node, bool) {
	out := map[string]any{}
	for _, n := range ns {
		n, ok := c.deref(n, n)
		if !ok || n.obj() == nil {
			return node{}, false
		}
		for k, v := range n.obj() {
			if !mergeKeyword(out, k, v) {
				return node{}, false
			}
		}
	}
	return node{v: out, ptr: ns[0].ptr, root: ns[0].root, via: ns[0].via, idx: ns[0].idx}, true
}

// mergeKeyword adds keyword k with value v to out, reporting false on a
// conflict it cannot merge.
func mergeKeyword(out map[string]any, k string, v any) bool {
	have, exists := out[k]
	switch {
	case !exists || annotationOnly[k]:
		out[k] = v
	case k == "required":
		out[k] = append(slices.Clone(listOf(have)), listOf(v)...)
	case k == "properties":
		return mergeProps(out, have, v)
	default:
		return jsonEqual(have, v) && !hasRef(v)
	}
	return true
}

// mergeProps merges two properties keywords with distinct names.
func mergeProps(out map[string]any, have, v any) bool {
	a, _ := have.(map[string]any)
	b, _ := v.(map[string]any)
	m := map[string]any{}
	for k, s := range a {
		m[k] = s
	}
	for k, s := range b {
		if _, dup := m[k]; dup {
			return false
		}
		m[k] = s
	}
	out["properties"] = m
	return true
}

// wideUnion decides containment in a wide side with a union keyword. allOf
// is exact: every member and the rest must contain the narrow side. anyOf
// needs one branch that does; oneOf needs one that does while the others
// are disjoint from the narrow side. When no single branch does, the
// narrow side is split: by value (enum or const, each value judged), by
// type (when the branches are pairwise type-disjoint, each type is
// compared with the one branch that admits it), or, for string patterns
// in an anyOf, by the union of the patterns' languages.
func (c *checker) wideUnion(wide, narrow node, kw string) {
	c.check(wide.without(kw), narrow)
	bs := branches(wide, kw)
	if kw == "allOf" {
		for _, b := range bs {
			c.check(b, narrow)
		}
		return
	}
	for i, b := range bs {
		if len(c.try(b, narrow)) == 0 && (kw == "anyOf" || c.othersDisjoint(bs, i, narrow)) {
			return
		}
	}
	switch {
	case c.byValue(wide, narrow, kw):
	case c.byType(wide, narrow, kw, bs):
	case kw == "anyOf" && c.byPatterns(wide, narrow, bs):
	default:
		c.unionMiss(wide, narrow, kw, bs)
	}
}

// byValue decides a narrow side limited to enum or const values by
// judging each value against the wide schema. It reports false when it
// cannot.
func (c *checker) byValue(wide, narrow node, kw string) bool {
	vals, finite := values(narrow)
	if !finite {
		return false
	}
	rejected, decided := c.valuesIn(wide, vals)
	if !decided {
		return false
	}
	for _, v := range rejected {
		c.add(kEnum, wide, narrow, kw, c.pick(
			fmt.Sprintf("value %s is accepted by no branch of %s (or by more than one of a oneOf)", text(v), kw),
			fmt.Sprintf("the tool may now return %s, which the old %s did not admit", text(v), kw)))
	}
	return true
}

// typeGroups are the instance types compared one at a time when the
// branches of a union are type-disjoint: integers and other numbers go
// together, since "number" admits both.
var typeGroups = []ir.Types{ir.TypeNull, ir.TypeBool, ir.TypeObject, ir.TypeArray, ir.TypeString, ir.TypeNumber}

// byType decides a union whose branches admit pairwise disjoint types
// (nullable anyOf: a schema and {type: null}): the narrow side, restricted
// to each type group it admits, must be contained in the branch that
// admits that group. It reports false when branches share a type.
func (c *checker) byType(wide, narrow node, kw string, bs []node) bool {
	owner := map[ir.Types]int{}
	for i, b := range bs {
		for _, g := range typeGroups {
			if types(c.target(b)).HasAny(g) {
				if _, taken := owner[g]; taken {
					return false
				}
				owner[g] = i
			}
		}
	}
	tn := types(narrow)
	for _, g := range typeGroups {
		if !tn.HasAny(g) {
			continue
		}
		i, ok := owner[g]
		if !ok {
			c.add(kType, wide, narrow, kw, c.pick(
				fmt.Sprintf("no branch of %s accepts %s values any more", kw, tn&g),
				fmt.Sprintf("the tool may now return %s values, which no branch of the old %s admitted", tn&g, kw)))
			continue
		}
		c.check(bs[i], restrictType(narrow, g))
	}
	return true
}

// restrictType returns n limited to the instance types of group g.
func restrictType(n node, g ir.Types) node {
	names := map[ir.Types]string{ir.TypeNull: "null", ir.TypeBool: "boolean", ir.TypeObject: "object", ir.TypeArray: "array", ir.TypeString: "string", ir.TypeNumber: "number"}
	if g == ir.TypeNumber && !types(n).HasAny(ir.TypeFraction) {
		names[ir.TypeNumber] = "integer"
	}
	m := n.without()
	m.v.(map[string]any)["type"] = names[g]
	return m
}

// byPatterns decides a narrow string schema against an anyOf whose
// branches constrain strings by pattern only: the union of their
// languages is the language of the alternation of the patterns.
func (c *checker) byPatterns(wide, narrow node, bs []node) bool {
	if types(narrow)&^ir.TypeString != 0 {
		return false
	}
	var alts []string
	for _, b := range bs {
		p, ok := patternOnly(b)
		if !ok {
			return false
		}
		alts = append(alts, "(?:"+p+")")
	}
	ns, _ := narrow.obj()["pattern"].(string)
	inc := patternIncluded(ns, strings.Join(alts, "|"), lengthsOf(narrow))
	switch {
	case !inc.decided:
		c.unknown(wide, narrow, "anyOf", inc.reason)
	case !inc.included:
		c.add(kBound, wide, narrow, "anyOf", c.pick(
			fmt.Sprintf("no pattern of anyOf accepts strings such as %q any more", inc.witness),
			fmt.Sprintf("the tool may now return strings such as %q, which no pattern of the old anyOf matched", inc.witness)))
	}
	return true
}

// patternOnly returns the pattern of a branch that constrains strings by
// its pattern alone (type string allowed).
func patternOnly(b node) (string, bool) {
	p, ok := b.obj()["pattern"].(string)
	if !ok {
		return "", false
	}
	for k, v := range b.obj() {
		if k != "pattern" && !annotationOnly[k] && !(k == "type" && v == "string") {
			return "", false
		}
	}
	return p, true
}

// pairwiseDisjoint reports whether no two of the branches share an
// instance.
func (c *checker) pairwiseDisjoint(bs []node) bool {
	for i := range bs {
		if !c.othersDisjoint(bs[i+1:], -1, bs[i]) {
			return false
		}
	}
	return true
}

// othersDisjoint reports whether every branch but i is disjoint from n.
func (c *checker) othersDisjoint(bs []node, i int, n node) bool {
	for j, b := range bs {
		if j != i && !disjoint(c.target(b), c.target(n)) {
			return false
		}
	}
	return true
}

// target dereferences n for a quick look, leaving n as is when it cannot.
func (c *checker) target(n node) node {
	v, _ := n.kw("$ref")
	if ref, ok := v.(string); ok {
		if t, ok := n.resolve(ref); ok {
			return t
		}
	}
	return n
}

// unionMiss records a narrow side no branch contains: decided when the
// narrow side admits a type no branch admits, undecided otherwise.
func (c *checker) unionMiss(wide, narrow node, kw string, bs []node) {
	var all ir.Types
	for _, b := range bs {
		all |= types(c.target(b))
	}
	if lost := types(narrow) &^ all; lost != 0 {
		c.add(kType, wide, narrow, kw, c.pick(
			fmt.Sprintf("no branch of %s accepts %s values any more", kw, lost),
			fmt.Sprintf("the tool may now return %s values, which no branch of the old %s admitted", lost, kw)))
		return
	}
	c.unknown(wide, narrow, kw, "no single branch contains the other schema, and containment in their union is not decided")
}

// disjoint reports whether no instance can satisfy both a and b: their
// types do not meet, their enum/const values do not meet, or a property
// both require has disjoint values on each side (a discriminator).
func disjoint(a, b node) bool {
	if !types(a).HasAny(types(b)) {
		return true
	}
	if va, ok := values(a); ok {
		if vb, ok := values(b); ok && !slices.ContainsFunc(va, func(v any) bool { return containsValue(vb, v) }) {
			return true
		}
	}
	return discriminated(a, b)
}

// discriminated reports whether a and b both require a property whose
// const or enum values are disjoint.
func discriminated(a, b node) bool {
	rb := stringsOf(b.obj()["required"])
	for _, name := range stringsOf(a.obj()["required"]) {
		pa, okA := props(a)[name]
		pb, okB := props(b)[name]
		if !okA || !okB || !slices.Contains(rb, name) {
			continue
		}
		na, nb := a.child(pa, "properties", name), b.child(pb, "properties", name)
		if _, ok := values(na); ok && disjoint(na, nb) {
			return true
		}
	}
	return false
}
