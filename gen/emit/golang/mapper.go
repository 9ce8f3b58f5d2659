package golang

import (
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/dave/jennifer/jen"
)

// mapper maps the schemas of one Provider to Go type declarations, in a
// deterministic order: tools by name, input before output, members by
// name.
type mapper struct {
	ns     *namespace
	decls  []*decl
	byName map[string]*decl
	// uses records the helpers the declarations need.
	uses struct{ nullable, dateTime, members bool }
}

// site is where a type is being mapped: the name it would get and what it
// is, for its doc comment. fixed means the name is already reserved.
type site struct {
	hint, what string
	fixed      bool
}

// declare adds a declaration named after at, with its doc comment from
// the schema.
func (m *mapper) declare(k declKind, at site, obj map[string]any) *decl {
	name := at.hint
	if !at.fixed {
		name = m.ns.take(at.hint)
	}
	d := &decl{kind: k, name: name}
	d.doc.para(name + " is " + at.what + ".")
	if obj != nil {
		d.doc.para(str(obj["title"]))
		d.doc.para(str(obj["description"]))
		d.doc.para(constraintNote(obj))
	}
	m.decls = append(m.decls, d)
	m.byName[name] = d
	return d
}

// str returns v when it is a string, else "".
func str(v any) string { s, _ := v.(string); return s }

// named is the Go type of a declaration.
func named(d *decl, k kind) gotype { return gotype{code: jen.Id(d.name), kind: k, name: d.name} }

// named maps the schema at ptr to the type name, reserved by the caller:
// a root schema or a $ref target. Recursive references to it while it is
// being built see a busy type.
func (m *mapper) named(d *schemaDoc, ptr, name, what string) gotype {
	d.refs[ptr] = gotype{code: jen.Id(name), name: name}
	d.busy[ptr] = true
	s, _ := d.at(ptr)
	t := m.typeOf(d, s, site{hint: name, what: what, fixed: true})
	delete(d.busy, ptr)
	if t.name != name {
		t = m.wrap(name, t, s, what)
	}
	d.refs[ptr] = t
	return t
}

// wrap declares name for a type that has no declaration of its own:
// an alias of a named or raw type (keeping its methods), else a defined
// type.
//
//	type ListAlertsInputTags []string
//	type FooOutput = json.RawMessage
func (m *mapper) wrap(name string, t gotype, s any, what string) gotype {
	obj, _ := s.(map[string]any)
	k := dDefined
	if t.name != "" || t.kind == kRaw {
		k = dAlias
	}
	dec := m.declare(k, site{hint: name, what: what, fixed: true}, obj)
	dec.under = t
	return named(dec, t.kind)
}

// typeOf maps one schema to a Go type (docs/go-mapping.md).
func (m *mapper) typeOf(d *schemaDoc, s any, at site) gotype {
	obj, ok := s.(map[string]any)
	if !ok {
		return tRaw
	}
	if ref, ok := obj["$ref"].(string); ok {
		return m.ref(d, ref, at)
	}
	if t, ok := m.union(d, obj, at); ok {
		return t
	}
	types, _ := typesOf(obj)
	switch {
	case len(types) == 1:
		return m.single(d, obj, types[0], at)
	case len(types) == 2 && containsBoth(types, "integer", "number"):
		return tFloat64
	case len(types) > 1:
		return m.typeUnion(d, obj, types, at)
	}
	return tRaw
}

// containsBoth reports whether the two-element s holds a and b.
func containsBoth(s []string, a, b string) bool {
	return (s[0] == a && s[1] == b) || (s[0] == b && s[1] == a)
}

// ref maps a $ref to the named type of its target, declaring it on first
// use as <Tool><last pointer segment>.
func (m *mapper) ref(d *schemaDoc, ref string, at site) gotype {
	ptr, ok := d.resolve(ref)
	if !ok {
		return tRaw
	}
	if t, ok := d.refs[ptr]; ok {
		t.busy = d.busy[ptr]
		return t
	}
	last := "Root"
	if ptr != "" {
		last = exportName(lastSegment(ptr))
	}
	name := m.ns.take(d.base + last)
	return m.named(d, ptr, name, fmt.Sprintf("the schema at %q of %s", "#"+ptr, d.tool))
}

// lastSegment returns the last token of a JSON pointer, unescaped.
func lastSegment(ptr string) string {
	i := len(ptr) - 1
	for i >= 0 && ptr[i] != '/' {
		i--
	}
	return unescapePtr(ptr[i+1:])
}

// unescapePtr decodes ~1 and ~0 in a JSON pointer token.
func unescapePtr(tok string) string {
	out := []byte{}
	for i := 0; i < len(tok); i++ {
		if tok[i] == '~' && i+1 < len(tok) {
			out = append(out, map[byte]byte{'0': '~', '1': '/'}[tok[i+1]])
			i++
			continue
		}
		out = append(out, tok[i])
	}
	return string(out)
}

// single maps a schema of one non-null type.
func (m *mapper) single(d *schemaDoc, obj map[string]any, typ string, at site) gotype {
	switch typ {
	case "string":
		return m.str(obj, at)
	case "integer":
		return integer(obj)
	case "number":
		return tFloat64
	case "boolean":
		return tBool
	case "array":
		return m.array(d, obj, at)
	case "object":
		return m.object(d, obj, at)
	}
	return tRaw
}

// str maps a string schema: a string enum to a named type with
// constants, date-time to DateTime, anything else to string.
func (m *mapper) str(obj map[string]any, at site) gotype {
	if vals := stringEnum(obj); len(vals) > 0 {
		dec := m.declare(dEnum, at, obj)
		for _, v := range vals {
			dec.values = append(dec.values, enumValue{name: m.ns.take(dec.name + exportName(v)), value: v})
		}
		return named(dec, kValue)
	}
	if obj["format"] == "date-time" {
		m.uses.dateTime = true
		return gotype{code: jen.Id("DateTime"), name: "DateTime"}
	}
	return tString
}

// integer maps an integer schema to int64, or to json.Number when a bound,
// const or enum value lies outside int64.
func integer(obj map[string]any) gotype {
	for _, k := range []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "const"} {
		if !fitsInt64(obj[k]) {
			return tNumber
		}
	}
	vals, _ := obj["enum"].([]any)
	for _, v := range vals {
		if !fitsInt64(v) {
			return tNumber
		}
	}
	return tInt64
}

// fitsInt64 reports whether a number literal (or a non-number) fits int64.
func fitsInt64(v any) bool {
	n, ok := v.(fmt.Stringer)
	if !ok {
		return true
	}
	_, err := strconv.ParseInt(n.String(), 10, 64)
	return err == nil
}

// array maps an array schema to a slice of its items' type; prefixItems
// and missing items map to a slice of raw JSON.
func (m *mapper) array(d *schemaDoc, obj map[string]any, at site) gotype {
	items, ok := obj["items"]
	if _, prefix := obj["prefixItems"]; prefix || !ok {
		return gotype{code: jen.Index().Add(tRaw.code), kind: kList}
	}
	elem := m.typeOf(d, items, site{hint: at.hint + "Item", what: "an item of " + at.hint})
	return gotype{code: jen.Index().Add(elemType(elem, d.nullable(items))), kind: kList}
}

// elemType is the element type of a slice or map: a pointer for a
// nullable value type.
func elemType(t gotype, nullable bool) jen.Code {
	if nullable && t.kind == kValue || t.busy && t.kind == kValue {
		return jen.Op("*").Add(t.code)
	}
	return t.code
}

// object maps an object schema: properties to a struct, otherwise a map
// of the additionalProperties type (raw JSON values when unconstrained),
// or an empty struct when no member is allowed.
func (m *mapper) object(d *schemaDoc, obj map[string]any, at site) gotype {
	props, _ := obj["properties"].(map[string]any)
	if len(props) > 0 || obj["additionalProperties"] == false {
		return m.structType(d, obj, props, at)
	}
	ap, ok := obj["additionalProperties"].(map[string]any)
	if !ok {
		return gotype{code: jen.Map(jen.String()).Add(tRaw.code), kind: kList}
	}
	val := m.typeOf(d, ap, site{hint: at.hint + "Value", what: "a member value of " + at.hint})
	return gotype{code: jen.Map(jen.String()).Add(elemType(val, d.nullable(ap))), kind: kList}
}

// structType declares a struct with one field per property, sorted by
// member name.
func (m *mapper) structType(d *schemaDoc, obj, props map[string]any, at site) gotype {
	dec := m.declare(dStruct, at, obj)
	req := requiredSet(obj)
	fns := newNamespace("MarshalJSON", "UnmarshalJSON")
	for _, name := range slices.Sorted(maps.Keys(props)) {
		dec.fields = append(dec.fields, m.field(d, dec.name, name, props[name], req[name], fns))
	}
	if dec.hasAwkward() {
		m.uses.members = true
	}
	return named(dec, kValue)
}

// field maps one property.
func (m *mapper) field(d *schemaDoc, parent, member string, s any, required bool, fns *namespace) *field {
	goName := fns.take(exportName(member))
	t := m.typeOf(d, s, site{hint: parent + goName, what: fmt.Sprintf("the type of member %q of %s", member, parent)})
	f := &field{name: goName, json: member, awkward: !validTag(member)}
	f.typ, f.omit = m.memberType(t, required, d.nullable(s))
	obj, _ := s.(map[string]any)
	f.doc.para(str(obj["title"]))
	f.doc.para(str(obj["description"]))
	if obj["$ref"] != nil || m.byName[t.name] == nil {
		f.doc.para(constraintNote(obj))
	}
	return f
}

// memberType is the field type of a member by the optional/nullable table
// of docs/go-mapping.md, and whether it is omitted when zero.
func (m *mapper) memberType(t gotype, required, nullable bool) (jen.Code, bool) {
	ptr := func() jen.Code { return jen.Op("*").Add(t.code) }
	switch {
	case t.kind == kRaw:
		return t.code, !required
	case required && !nullable:
		if t.busy && t.kind == kValue {
			return ptr(), false
		}
		return t.code, false
	case required:
		if t.kind == kList {
			return t.code, false
		}
		return ptr(), false
	case !nullable:
		if t.kind == kList {
			return t.code, true
		}
		return ptr(), true
	}
	m.uses.nullable = true
	if t.busy && t.kind == kValue {
		return jen.Id("Nullable").Types(ptr()), true
	}
	return jen.Id("Nullable").Types(t.code), true
}
