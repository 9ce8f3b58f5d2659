package golang

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
)

// union maps oneOf and anyOf (a [T, null] pair to nullable T, a
// discriminated set to a tagged union, anything else to a raw union) and
// allOf (object members merged into one struct, anything else raw JSON).
func (m *mapper) union(d *schemaDoc, obj map[string]any, at site) (gotype, bool) {
	for _, kw := range []string{"oneOf", "anyOf"} {
		if branches, ok := obj[kw].([]any); ok {
			return m.choice(d, obj, branches, at), true
		}
	}
	all, ok := obj["allOf"].([]any)
	if !ok {
		return gotype{}, false
	}
	if merged := mergeAllOf(d, obj, all); merged != nil {
		return m.typeOf(d, merged, at), true
	}
	return tRaw, true
}

// choice maps the branches of oneOf or anyOf.
func (m *mapper) choice(d *schemaDoc, obj map[string]any, branches []any, at site) gotype {
	var rest []any
	for _, b := range branches {
		if !isNullSchema(d.deref(b)) {
			rest = append(rest, b)
		}
	}
	if len(rest) == 1 {
		return m.typeOf(d, rest[0], at)
	}
	if prop, values, ok := discriminator(d, rest); ok {
		return m.tagged(d, obj, rest, prop, values, at)
	}
	dec := m.declare(dRaw, at, obj)
	vns := newNamespace("MarshalJSON", "UnmarshalJSON")
	for i, b := range rest {
		name := vns.take(variantName(b, i))
		t := m.typeOf(d, b, site{hint: dec.name + name, what: "a variant of " + dec.name})
		dec.variants = append(dec.variants, &variant{name: name, typ: t, ctor: m.ns.take(dec.name + "From" + name)})
	}
	return named(dec, kRaw)
}

// tagged declares a union chosen by the discriminator prop. A branch that
// is not a struct with that member makes it a raw union instead.
func (m *mapper) tagged(d *schemaDoc, obj map[string]any, branches []any, prop string, values []string, at site) gotype {
	dec := m.declare(dTagged, at, obj)
	dec.disc = prop
	vns := newNamespace("MarshalJSON", "UnmarshalJSON")
	for i, b := range branches {
		name := vns.take(exportName(values[i]))
		t := m.typeOf(d, b, site{hint: dec.name + name, what: fmt.Sprintf("the variant of %s whose %q is %q", dec.name, prop, values[i])})
		dec.variants = append(dec.variants, &variant{name: name, typ: t, value: values[i], discField: m.fieldOf(t, prop)})
	}
	if slices.ContainsFunc(dec.variants, func(v *variant) bool { return v.discField == "" }) {
		dec.kind = dRaw
		for _, v := range dec.variants {
			v.ctor = m.ns.take(dec.name + "From" + v.name)
		}
		return named(dec, kRaw)
	}
	return named(dec, kValue)
}

// fieldOf returns the Go name of the member json of the struct t (through
// aliases), or "".
func (m *mapper) fieldOf(t gotype, json string) string {
	dec := m.byName[t.name]
	for dec != nil && dec.kind == dAlias {
		dec = m.byName[dec.under.name]
	}
	if dec == nil || dec.kind != dStruct {
		return ""
	}
	for _, f := range dec.fields {
		if f.json == json && !f.awkward {
			return f.name
		}
	}
	return ""
}

// discriminator finds a member that every branch requires with a distinct
// string const (or single-value enum): the first such member by name.
func discriminator(d *schemaDoc, branches []any) (string, []string, bool) {
	if len(branches) < 2 {
		return "", nil, false
	}
	first, _ := d.deref(branches[0]).(map[string]any)
	props, _ := first["properties"].(map[string]any)
	for _, prop := range slices.Sorted(maps.Keys(props)) {
		if values, ok := constValues(d, branches, prop); ok {
			return prop, values, true
		}
	}
	return "", nil, false
}

// constValues returns each branch's const value of prop, if all have one,
// require it, and differ.
func constValues(d *schemaDoc, branches []any, prop string) ([]string, bool) {
	var values []string
	for _, b := range branches {
		obj, _ := d.deref(b).(map[string]any)
		props, _ := obj["properties"].(map[string]any)
		v, ok := constString(d.deref(props[prop]))
		if !ok || !requiredSet(obj)[prop] || slices.Contains(values, v) {
			return nil, false
		}
		values = append(values, v)
	}
	return values, true
}

// constString returns the string const (or one-value enum) of a schema.
func constString(s any) (string, bool) {
	obj, _ := s.(map[string]any)
	if c, ok := obj["const"].(string); ok {
		return c, true
	}
	if vals, ok := obj["enum"].([]any); ok && len(vals) == 1 {
		c, ok := vals[0].(string)
		return c, ok
	}
	return "", false
}

// variantName names a raw union's branch: the $ref's last segment, the
// branch's single type, or VariantN.
func variantName(b any, i int) string {
	obj, _ := b.(map[string]any)
	if ref, ok := obj["$ref"].(string); ok && lastSegment(ref) != "" {
		return exportName(lastSegment(ref))
	}
	if types, _ := typesOf(obj); len(types) == 1 {
		return exportName(types[0])
	}
	return "Variant" + strconv.Itoa(i+1)
}

// typeUnion maps a type list of several non-null types to a raw union
// with one accessor per type.
func (m *mapper) typeUnion(d *schemaDoc, obj map[string]any, types []string, at site) gotype {
	dec := m.declare(dRaw, at, obj)
	vns := newNamespace("MarshalJSON", "UnmarshalJSON")
	for _, typ := range types {
		name := vns.take(exportName(typ))
		t := m.single(d, obj, typ, site{hint: dec.name + name, what: "the " + typ + " variant of " + dec.name})
		dec.variants = append(dec.variants, &variant{name: name, typ: t, ctor: m.ns.take(dec.name + "From" + name)})
	}
	return named(dec, kRaw)
}

// mergeAllOf merges allOf members that are all objects (after following
// references) with the schema's own properties into one object schema,
// or returns nil. A member listed twice keeps its first schema; the
// runtime still checks every member.
func mergeAllOf(d *schemaDoc, obj map[string]any, all []any) map[string]any {
	props, req := map[string]any{}, []any{}
	parts := append([]any{obj}, all...)
	for i, p := range parts {
		o, ok := d.deref(p).(map[string]any)
		if !ok || (i > 0 && !isObjectSchema(o)) {
			return nil
		}
		pp, _ := o["properties"].(map[string]any)
		for k, v := range pp {
			if _, seen := props[k]; !seen {
				props[k] = v
			}
		}
		r, _ := o["required"].([]any)
		req = append(req, r...)
	}
	merged := map[string]any{"type": "object", "properties": props, "required": req}
	for _, k := range []string{"title", "description", "additionalProperties"} {
		if v, ok := obj[k]; ok {
			merged[k] = v
		}
	}
	return merged
}

// isObjectSchema reports whether a schema is a plain object schema.
func isObjectSchema(o map[string]any) bool {
	for _, kw := range []string{"oneOf", "anyOf", "allOf"} {
		if _, ok := o[kw]; ok {
			return false
		}
	}
	types, _ := typesOf(o)
	return len(types) == 1 && types[0] == "object"
}
