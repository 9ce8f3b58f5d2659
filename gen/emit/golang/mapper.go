package golang

import (
	"fmt"

	"github.com/cetpgen/cetpgen/gen/ir"
	"github.com/dave/jennifer/jen"
)

// mapper turns the IR's schema nodes into Go type declarations. It reads
// only the graph: the kind of every node and every name come from
// package ir, so the mapping decides Go spelling, never schema meaning.
type mapper struct {
	// uses records the helpers the declarations need.
	uses helperUses
}

// helperUses are the helper types of types.go that declarations need.
type helperUses struct{ nullable, dateTime bool }

// str returns v when it is a string, else "".
func str(v any) string { s, _ := v.(string); return s }

// declare builds the declaration of a named node.
func (m *mapper) declare(n *ir.Node) *decl {
	d := &decl{name: n.GoName, node: n}
	d.doc.para(n.GoName + " is " + n.What + ".")
	obj := n.Obj()
	d.doc.para(str(obj["title"]))
	d.doc.para(str(obj["description"]))
	d.doc.para(constraintNote(n))
	switch n.Kind {
	case ir.KindObject:
		m.structDecl(d, n)
	case ir.KindEnum:
		d.kind = dEnum
		for _, v := range n.Values {
			d.values = append(d.values, enumValue{name: v.GoName, value: v.Value})
		}
	case ir.KindTagged:
		m.taggedDecl(d, n)
	case ir.KindUnion:
		m.unionDecl(d, n)
	default:
		d.under = m.typeOf(n, true)
		d.kind = dDefined
		if d.under.name != "" || d.under.kind == kRaw {
			d.kind = dAlias
		}
	}
	return d
}

// typeOf is the Go type of a node: its name when it is declared (unless
// inner asks for the declaration's own type), else the type of its kind
// (docs/go-mapping.md).
func (m *mapper) typeOf(n *ir.Node, inner bool) gotype {
	if n.Declared && !inner {
		return gotype{code: jen.Id(n.GoName), kind: kindOfDecl(n), name: n.GoName, node: n}
	}
	switch n.Kind {
	case ir.KindRef:
		return m.typeOf(n.Target, false)
	case ir.KindBool:
		return tBool
	case ir.KindInteger:
		if n.Int == ir.Int64 {
			return tInt64
		}
		return tBigInt
	case ir.KindNumber:
		return tNumber
	case ir.KindString:
		if n.Format == "date-time" {
			m.uses.dateTime = true
			return gotype{code: jen.Id("DateTime"), name: "DateTime"}
		}
		return tString
	case ir.KindArray:
		return gotype{code: jen.Index().Add(m.elem(n.Items)), kind: kList}
	case ir.KindTuple:
		return gotype{code: jen.Index().Add(tRaw.code), kind: kList}
	case ir.KindMap:
		return gotype{code: jen.Map(jen.String()).Add(m.elem(n.ExtraNode)), kind: kList}
	}
	return tRaw
}

// kindOfDecl is how absence and null are expressed with a declared type.
func kindOfDecl(n *ir.Node) kind {
	r := n.Resolved()
	switch {
	case n.Kind == ir.KindUnion || r.Kind == ir.KindUnion || r.Kind == ir.KindAny || r.Kind == ir.KindNever || r.Kind == ir.KindNull:
		return kRaw
	case r.Kind == ir.KindArray || r.Kind == ir.KindTuple || r.Kind == ir.KindMap:
		return kList
	}
	return kValue
}

// elem is the element type of a slice or map: a pointer for a nullable
// value type, so that null survives.
func (m *mapper) elem(n *ir.Node) jen.Code {
	if n == nil {
		return tRaw.code
	}
	t := m.typeOf(n, false)
	if n.IsNullable() && t.kind == kValue {
		return jen.Op("*").Add(t.code)
	}
	return t.code
}

// structDecl declares a struct: one field per declared member, sorted by
// name, and the extra members the schema admits.
func (m *mapper) structDecl(d *decl, n *ir.Node) {
	d.kind = dStruct
	for _, p := range n.Props {
		d.fields = append(d.fields, m.field(n, p))
	}
	switch n.Extra {
	case ir.ExtraAny:
		d.extra = &gotype{code: jen.Map(jen.String()).Add(tRaw.code), kind: kList}
	case ir.ExtraTyped:
		d.extra = &gotype{code: jen.Map(jen.String()).Add(m.elem(n.ExtraNode)), kind: kList}
	}
}

// field maps one declared member.
func (m *mapper) field(parent *ir.Node, p *ir.Prop) *field {
	t := m.typeOf(p.Node, false)
	f := &field{name: p.GoName, json: p.Name, awkward: !validTag(p.Name)}
	recursive := t.kind == kValue && t.node != nil && embeds(t.node, parent, map[*ir.Node]bool{})
	f.typ, f.omit = m.memberType(t, p.Required, p.Node.IsNullable(), recursive)
	// A reference to a subschema that is no type of its own (a string
	// under $defs) documents the target's text and constraints here.
	doc := p.Node
	for doc.Kind == ir.KindRef && doc.Obj() != nil && len(doc.Obj()) == 1 && !doc.Target.Declared && doc.Target != doc {
		doc = doc.Target
	}
	obj := doc.Obj()
	f.doc.para(str(obj["title"]))
	f.doc.para(str(obj["description"]))
	if !doc.Declared {
		f.doc.para(constraintNote(doc))
	}
	return f
}

// embeds reports whether a value of the declared node from holds a value
// of to without indirection (a struct field or Nullable of it), which
// would make the Go type infinite unless a field is a pointer.
func embeds(from, to *ir.Node, seen map[*ir.Node]bool) bool {
	from = from.Resolved()
	if from == to.Resolved() {
		return true
	}
	if seen[from] || from.Kind != ir.KindObject {
		return false
	}
	seen[from] = true
	for _, p := range from.Props {
		next := p.Node.Resolved()
		if next.Kind != ir.KindObject || !p.Node.Declared && p.Node.Kind != ir.KindRef {
			continue
		}
		if p.Required && !p.Node.IsNullable() || !p.Required && p.Node.IsNullable() {
			if embeds(next, to, seen) {
				return true
			}
		}
	}
	return false
}

// memberType is the field type of a member by the optional/nullable table
// of docs/go-mapping.md, and whether it is omitted when zero. A recursive
// member is a pointer where the table would embed the value.
func (m *mapper) memberType(t gotype, required, nullable, recursive bool) (jen.Code, bool) {
	ptr := func() jen.Code { return jen.Op("*").Add(t.code) }
	switch {
	case t.kind == kRaw:
		return t.code, !required
	case required && !nullable:
		if recursive {
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
	if recursive {
		return jen.Id("Nullable").Types(ptr()), true
	}
	return jen.Id("Nullable").Types(t.code), true
}

// taggedDecl declares a union told apart by its discriminator.
func (m *mapper) taggedDecl(d *decl, n *ir.Node) {
	d.kind, d.disc = dTagged, n.Disc
	for _, v := range n.Variants {
		t := m.typeOf(v.Node, false)
		d.variants = append(d.variants, &variant{name: v.GoName, typ: t, value: v.Value, discField: discField(v.Node, n.Disc)})
	}
}

// discField is the Go field of the discriminator in a variant's struct.
func discField(n *ir.Node, disc string) string {
	for _, p := range n.Resolved().Props {
		if p.Name == disc && validTag(p.Name) {
			return p.GoName
		}
	}
	return ""
}

// unionDecl declares an open union: the JSON value, with one accessor and
// constructor per variant.
func (m *mapper) unionDecl(d *decl, n *ir.Node) {
	d.kind = dRaw
	for _, v := range n.Variants {
		d.variants = append(d.variants, &variant{name: v.GoName, typ: m.typeOf(v.Node, false), ctor: v.GoCtor})
	}
	if n.Open {
		d.doc.para(fmt.Sprintf("It holds any JSON value the schema admits; the As methods decode the %s it may be.", viewList(n)))
	}
}

// viewList names an open union's typed views for its doc comment.
func viewList(n *ir.Node) string {
	s := ""
	for i, v := range n.Variants {
		if i > 0 {
			s += " or "
		}
		s += map[string]string{"Object": "object", "Array": "array"}[v.GoName]
		if s == "" || s[len(s)-1] == ' ' {
			s += v.GoName
		}
	}
	return s
}
