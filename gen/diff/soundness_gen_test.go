package diff

import (
	"encoding/json"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
)

// source is the randomness the generators draw from: a seeded generator
// for the property test, the fuzzer's bytes for the fuzz target.
type entropy interface {
	// intn returns a number in [0, n).
	intn(n int) int
}

// randSource draws from math/rand.
type randSource struct{ r *rand.Rand }

// intn returns a number in [0, n).
func (s randSource) intn(n int) int { return s.r.IntN(n) }

// byteSource draws from a byte string, then zeros.
type byteSource struct {
	data []byte
	i    int
}

// intn returns a number in [0, n) from the next byte.
func (s *byteSource) intn(n int) int {
	if s.i >= len(s.data) {
		return 0
	}
	b := s.data[s.i]
	s.i++
	return int(b) % n
}

// schemaGen generates schemas over a small vocabulary, so that two
// independently generated schemas often meet: property names a, b, c,
// one definition d, a handful of numbers, strings and patterns.
type schemaGen struct {
	src   entropy
	depth int
}

// Value pools the generators draw from.
var (
	typePool    = []string{"null", "boolean", "object", "array", "string", "integer", "number"}
	numberPool  = []string{"-1", "0", "1", "2", "2.5", "3", "10"}
	stringPool  = []string{"", "a", "b", "ab", "abc", "x", "xy", "a1", "A", "1", "12", "a/b", "a.b", "a\nb", "a\rb", "zzzz"}
	patternPool = []string{`^[a-z]+$`, `^[a-z0-9]+$`, `[0-9]`, `^a`, `b$`, `^[a-z]{1,3}$`, `^.*$`, `^(x|y)+$`, `^[./a-z]+$`, `^[.a-z]+$`, `a|1`, `^a.b$`, `\s`}
	namePool    = []string{"a", "b", "c"}
	formatPool  = []string{"date", "email"}
)

// pick returns a random element of pool.
func pick[T any](g *schemaGen, pool []T) T { return pool[g.src.intn(len(pool))] }

// chance reports true with probability 1/n.
func (g *schemaGen) chance(n int) bool { return g.src.intn(n) == 0 }

// number returns a pool number.
func (g *schemaGen) number() json.Number { return json.Number(pick(g, numberPool)) }

// count returns a small non-negative integer.
func (g *schemaGen) count() json.Number { return json.Number(strconv.Itoa(g.src.intn(4))) }

// root generates a document: a schema, sometimes with a definition d that
// its subschemas may refer to.
func (g *schemaGen) root() any {
	s := g.schema()
	m, ok := s.(map[string]any)
	if ok && g.chance(3) {
		g.depth = 1
		m["$defs"] = map[string]any{"d": g.schema()}
	}
	return s
}

// schema generates one subschema, shallower as it nests.
func (g *schemaGen) schema() any {
	if g.depth > 3 || g.chance(12) {
		return g.chance(3) == false
	}
	g.depth++
	defer func() { g.depth-- }()
	m := map[string]any{}
	for range 1 + g.src.intn(3) {
		g.family(m)
	}
	return m
}

// family adds the keywords of one randomly chosen family to m.
func (g *schemaGen) family(m map[string]any) {
	switch g.src.intn(11) {
	case 0:
		g.typeKeyword(m)
	case 1:
		g.enumKeyword(m)
	case 2:
		g.numberKeywords(m)
	case 3:
		g.stringKeywords(m)
	case 4, 5:
		g.objectKeywords(m)
	case 6:
		g.arrayKeywords(m)
	case 7:
		m[pick(g, []string{"anyOf", "oneOf", "allOf"})] = g.branches()
	case 8:
		m["$ref"] = "#/$defs/d"
	case 9:
		m["anyOf"] = []any{g.schema(), map[string]any{"type": "null"}}
	default:
		m[pick(g, []string{"not", "if", "propertyNames"})] = g.schema()
	}
}

// typeKeyword sets type to one name or a list of names.
func (g *schemaGen) typeKeyword(m map[string]any) {
	if g.chance(2) {
		m["type"] = pick(g, typePool)
		return
	}
	var list []any
	for _, t := range typePool {
		if g.chance(3) {
			list = append(list, t)
		}
	}
	if len(list) == 0 {
		list = []any{"string", "null"}
	}
	m["type"] = list
}

// enumKeyword sets enum or const from the value pools.
func (g *schemaGen) enumKeyword(m map[string]any) {
	if g.chance(3) {
		m["const"] = g.scalar()
		return
	}
	var vals []any
	for range 1 + g.src.intn(4) {
		v := g.scalar()
		if !slices.ContainsFunc(vals, func(w any) bool { return jsonEqual(v, w) }) {
			vals = append(vals, v)
		}
	}
	m["enum"] = vals
}

// scalar returns a pool value of a scalar type.
func (g *schemaGen) scalar() any {
	switch g.src.intn(4) {
	case 0:
		return g.number()
	case 1:
		return pick(g, stringPool)
	case 2:
		return g.chance(2)
	}
	return nil
}

// numberKeywords sets one or two numeric bounds or multipleOf.
func (g *schemaGen) numberKeywords(m map[string]any) {
	kw := pick(g, []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"})
	v := g.number()
	if kw == "multipleOf" {
		v = json.Number(pick(g, []string{"1", "2", "0.5", "3"}))
	}
	m[kw] = v
}

// stringKeywords sets a length bound, a pattern or a format.
func (g *schemaGen) stringKeywords(m map[string]any) {
	switch g.src.intn(5) {
	case 0, 1:
		m["pattern"] = pick(g, patternPool)
	case 2:
		m["minLength"] = g.count()
	case 3:
		m["maxLength"] = g.count()
	default:
		m["format"] = pick(g, formatPool)
	}
}

// objectKeywords sets properties, required, additionalProperties or a
// property count.
func (g *schemaGen) objectKeywords(m map[string]any) {
	props := map[string]any{}
	for _, n := range namePool {
		if g.chance(2) {
			props[n] = g.schema()
		}
	}
	if len(props) > 0 || g.chance(2) {
		m["properties"] = props
	}
	var req []any
	for _, n := range namePool {
		if g.chance(3) {
			req = append(req, n)
		}
	}
	if len(req) > 0 {
		m["required"] = req
	}
	switch g.src.intn(6) {
	case 0:
		m["additionalProperties"] = false
	case 1:
		m["additionalProperties"] = g.schema()
	case 2:
		m[pick(g, []string{"minProperties", "maxProperties"})] = g.count()
	case 3:
		m["type"] = "object"
	}
}

// arrayKeywords sets items, an item count or uniqueItems.
func (g *schemaGen) arrayKeywords(m map[string]any) {
	switch g.src.intn(4) {
	case 0, 1:
		m["items"] = g.schema()
	case 2:
		m[pick(g, []string{"minItems", "maxItems"})] = g.count()
	default:
		m["uniqueItems"] = true
	}
}

// branches returns one to three subschemas.
func (g *schemaGen) branches() []any {
	var out []any
	for range 1 + g.src.intn(3) {
		out = append(out, g.schema())
	}
	return out
}

// mutate returns a copy of doc with one to three random edits of the
// kinds real schemas see: a keyword removed, a keyword family added, a
// subschema replaced, a bound moved, a value or required name added.
func (g *schemaGen) mutate(doc any) any {
	doc = deepCopy(doc)
	for range 1 + g.src.intn(3) {
		nodes := schemaNodes(doc)
		if len(nodes) == 0 {
			return g.root()
		}
		g.edit(nodes[g.src.intn(len(nodes))])
	}
	return doc
}

// edit changes one schema object in place.
func (g *schemaGen) edit(m map[string]any) {
	keys := sortedKeys(m)
	switch g.src.intn(5) {
	case 0:
		if len(keys) > 0 {
			delete(m, pick(g, keys))
		}
	case 1:
		g.family(m)
	case 2:
		if len(keys) > 0 {
			k := pick(g, keys)
			if _, isSchema := subschemaKeywords[k]; isSchema {
				m[k] = g.schema()
			}
		}
	case 3:
		for _, k := range keys {
			if v, ok := m[k].(json.Number); ok {
				m[k] = g.number()
				if slices.Contains([]string{"minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"}, k) {
					m[k] = g.count()
				}
				_ = v
			}
		}
	default:
		if l, ok := m["enum"].([]any); ok {
			m["enum"] = append(slices.Clone(l), g.scalar())
		} else if l, ok := m["required"].([]any); ok {
			m["required"] = append(slices.Clone(l), pick(g, namePool))
		} else {
			m["additionalProperties"] = g.chance(2)
		}
	}
}

// subschemaKeywords are the keywords whose value is one subschema.
var subschemaKeywords = map[string]bool{
	"items": true, "additionalProperties": true, "not": true, "if": true, "propertyNames": true,
}

// schemaNodes returns every schema object of doc, in a fixed order.
func schemaNodes(doc any) []map[string]any {
	var out []map[string]any
	var walk func(v any)
	walk = func(v any) {
		m, ok := v.(map[string]any)
		if !ok {
			return
		}
		out = append(out, m)
		for _, k := range sortedKeys(m) {
			switch sub := m[k].(type) {
			case map[string]any:
				if k == "properties" || k == "$defs" {
					for _, n := range sortedKeys(sub) {
						walk(sub[n])
					}
				} else if subschemaKeywords[k] {
					walk(sub)
				}
			case []any:
				if k == "anyOf" || k == "oneOf" || k == "allOf" {
					for _, b := range sub {
						walk(b)
					}
				}
			}
		}
	}
	walk(doc)
	return out
}

// sortedKeys returns the keys of m, sorted.
func sortedKeys(m map[string]any) []string { return slices.Sorted(maps.Keys(m)) }

// deepCopy copies a decoded JSON value.
func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = deepCopy(e)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = deepCopy(e)
		}
		return l
	}
	return v
}

// instances returns instances to try against a pair: values drawn from
// both schemas (their enum values, bounds, declared properties, with and
// without undeclared members) and plain pool values.
func (g *schemaGen) instances(docs ...any) []any {
	var out []any
	for _, d := range docs {
		for range 12 {
			out = append(out, g.sample(d, d, 0))
		}
	}
	for range 8 {
		out = append(out, g.anyValue(0))
	}
	return out
}

// sample returns a value shaped by schema s (an instance that s is likely
// to accept, or nearly), resolving $ref against root.
func (g *schemaGen) sample(s, root any, depth int) any {
	m, ok := s.(map[string]any)
	if !ok || depth > 4 {
		return g.anyValue(depth)
	}
	if ref, ok := m["$ref"].(string); ok && g.chance(2) {
		if t, ok := rootNode(root).resolve(ref); ok {
			return g.sample(t.v, root, depth+1)
		}
	}
	for _, kw := range []string{"anyOf", "oneOf", "allOf"} {
		if bs, ok := m[kw].([]any); ok && len(bs) > 0 && g.chance(2) {
			return g.sample(bs[g.src.intn(len(bs))], root, depth+1)
		}
	}
	if vals, ok := values(node{v: m}); ok && len(vals) > 0 && g.chance(4) != true {
		return vals[g.src.intn(len(vals))]
	}
	if _, ok := m["properties"]; ok || m["type"] == "object" {
		return g.object(m, root, depth)
	}
	if items, ok := m["items"]; ok {
		return []any{g.sample(items, root, depth+1), g.sample(items, root, depth+1)}[:g.src.intn(3)%2+1]
	}
	for _, kw := range []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"} {
		if v, ok := m[kw].(json.Number); ok && g.chance(2) {
			return v
		}
	}
	return g.anyValue(depth)
}

// object returns an object with some declared properties of m, sometimes
// with an undeclared member.
func (g *schemaGen) object(m map[string]any, root any, depth int) any {
	out := map[string]any{}
	props, _ := m["properties"].(map[string]any)
	for _, n := range sortedKeys(props) {
		if !g.chance(4) {
			out[n] = g.sample(props[n], root, depth+1)
		}
	}
	if g.chance(3) {
		out[pick(g, []string{"a", "b", "c", "z"})] = g.anyValue(depth + 1)
	}
	return out
}

// anyValue returns a pool value of any type.
func (g *schemaGen) anyValue(depth int) any {
	switch g.src.intn(6) {
	case 0:
		return nil
	case 1:
		return g.chance(2)
	case 2:
		return g.number()
	case 3:
		return pick(g, stringPool)
	case 4:
		if depth < 3 {
			return []any{g.anyValue(depth + 1)}
		}
	}
	if depth < 3 && g.chance(2) {
		return map[string]any{pick(g, namePool): g.anyValue(depth + 1)}
	}
	return map[string]any{}
}
