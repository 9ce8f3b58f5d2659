package kotlin

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cetpgen/cetpgen/gen/ir"
)

// typesView is the view of types.kt.tmpl.
type typesView struct {
	common
	// Decls are the Provider's schema types, in the IR's naming order,
	// each rendered by the template decl.
	Decls []string
	// Tools are the tools' objects of conversions, each rendered by the
	// template toolTypes.
	Tools []string
}

// declView is one top-level declaration: exactly one part is set.
type declView struct {
	Class  *classView
	Object *classView
	Enum   *enumView
	Tagged *taggedView
	Union  *unionView
	Alias  *aliasView
}

// toolTypesView is one tool's object of conversions.
type toolTypesView struct {
	Object string
	Doc    string
	// Roots are the input and output conversions.
	Roots []rootView
}

// rootView is the decode and encode function pair of a tool's input or
// output, whatever Kotlin type the root schema maps to.
type rootView struct {
	Suffix string
	Label  string
	Type   string
	Decode string
	Encode string
}

// classView is one data class (or, without members, one object).
type classView struct {
	J      string
	Name   string
	Doc    string
	Props  []propView
	Closed bool
	Known  string
	// Extra names the property keeping undeclared members, empty if none;
	// ExtraType is its type, ExtraDecode and ExtraEncode its conversions.
	Extra, ExtraType, ExtraDecode, ExtraEncode string
}

// propView is one property: declaration, conversion from and to JSON.
type propView struct {
	Name   string
	Decl   string
	Doc    string
	Decode string
	Encode string
}

// enumView is one enum class.
type enumView struct {
	J      string
	Name   string
	Doc    string
	Values []enumValueView
}

// enumValueView is one constant with its wire literal.
type enumValueView struct {
	Const string
	Wire  string
	Last  bool
}

// taggedView is one sealed class: a tagged union of object classes.
type taggedView struct {
	J             string
	Name          string
	Doc           string
	Discriminator string
	Variants      []taggedVariantView
}

// taggedVariantView is one variant: its nested class, discriminator
// literal, and the (package-qualified) class it holds.
type taggedVariantView struct {
	Name, Value, Type, Decode string
}

// unionView is one open union: a class holding the JSON value, with one
// accessor and one constructor per variant.
type unionView struct {
	J        string
	Name     string
	Doc      string
	Variants []unionVariantView
}

// unionVariantView is one variant's accessor and constructor.
type unionVariantView struct {
	Name, Type, Decode, Encode string
}

// aliasView is one typealias of a declared node that is no class.
type aliasView struct {
	Name, Doc, Type string
}

// size is the length of the rendered parts.
func (v typesView) size() int { return totalLen(v.Decls, v.Tools) }

// typesView builds the view of the types file, rendering its
// declarations and tool objects in parallel.
func (m *model) typesView() (any, error) {
	v := typesView{common: m.common()}
	c := codec{J: m.names.J}
	var err error
	v.Decls, err = renderEach(len(m.p.Decls), "decl", func(i int) any { return m.declView(c, m.p.Decls[i]) })
	if err != nil {
		return nil, err
	}
	v.Tools, err = renderEach(len(m.tools), "toolTypes", func(i int) any { return toolTypesViewOf(c, m.tools[i]) })
	if err != nil {
		return nil, err
	}
	return v, nil
}

// toolTypesViewOf builds one tool's object of conversions.
func toolTypesViewOf(c codec, t *toolModel) toolTypesView {
	doc := fmt.Sprintf("%s converts the input and output of the tool %s (%s) from and to JSON.", t.names.Object, t.t.Name, t.t.Title)
	return toolTypesView{Object: t.names.Object, Doc: kdoc("", doc), Roots: []rootView{
		rootViewOf(c, "Input", "input", t.input), rootViewOf(c, "Output", "output", t.output),
	}}
}

// rootViewOf builds the conversions of one root.
func rootViewOf(c codec, suffix, label string, t *ktype) rootView {
	return rootView{Suffix: suffix, Label: label, Type: c.typeName(t),
		Decode: c.decode(t, "element", "path", 0), Encode: c.encode(t, "value", 0)}
}

// declView builds the declaration of one named node.
func (m *model) declView(c codec, n *ir.Node) declView {
	doc := nodeDoc(n)
	switch {
	case n.Kind == ir.KindObject && len(n.Props) == 0:
		return declView{Object: &classView{J: c.J, Name: n.KotlinName, Doc: kdoc("", doc)}}
	case n.Kind == ir.KindObject:
		return declView{Class: m.classView(c, n, doc)}
	case n.Kind == ir.KindEnum:
		return declView{Enum: enumViewOf(c.J, n, doc)}
	case n.Kind == ir.KindTagged:
		return declView{Tagged: m.taggedView(c, n, doc)}
	case n.Kind == ir.KindUnion:
		return declView{Union: unionViewOf(c, n, doc)}
	}
	return declView{Alias: &aliasView{Name: n.KotlinName, Doc: kdoc("", doc), Type: c.typeName(structure(n, []*ir.Node{n}))}}
}

// nodeDoc is a declaration's KDoc text: what the node is, its title and
// its description.
func nodeDoc(n *ir.Node) string {
	parts := []string{n.KotlinName + " is " + n.What + "."}
	if d := docOf(n.Obj()); d != "" {
		parts = append(parts, d)
	}
	return strings.Join(parts, "\n\n")
}

// classView builds one data class's view.
func (m *model) classView(c codec, n *ir.Node, doc string) *classView {
	v := &classView{J: c.J, Name: n.KotlinName, Doc: kdoc("", doc), Closed: n.Extra == ir.ExtraNone}
	var known []string
	for _, p := range n.Props {
		v.Props = append(v.Props, m.propView(c, p))
		known = append(known, kotlinString(p.Name))
	}
	v.Known = "setOf(" + strings.Join(known, ", ") + ")"
	if n.Extra == ir.ExtraNone {
		return v
	}
	v.Extra = "extra"
	et := &ktype{kind: kRaw}
	if n.Extra == ir.ExtraTyped {
		et = use(n.ExtraNode)
	}
	v.ExtraType = "Map<String, " + c.typeName(et) + ">"
	v.ExtraDecode = "obj.filterKeys { it !in " + v.Known + " }"
	v.ExtraEncode = "for ((k, v) in this.extra) if (k !in " + v.Known + ") json[k] = v"
	if et.kind != kRaw {
		v.ExtraDecode += ".mapValues { (k, v) -> " + c.decode(et, "v", c.J+".at(path, k)", 0) + " }"
		v.ExtraEncode = "for ((k, v) in this.extra) if (k !in " + v.Known + ") json[k] = " + c.encode(et, "v", 0)
	}
	return v
}

// propView builds one property's declaration and conversions: a required
// property is always written, an optional one only when set, and an
// optional nullable one keeps absent and null apart.
func (m *model) propView(c codec, p *ir.Prop) propView {
	t := use(p.Node)
	v := propView{Name: quoted(p.KotlinName)}
	if d := propDoc(p.Node); d != "" {
		v.Doc = kdoc("    ", d)
	}
	w := kotlinString(p.Name)
	at := c.J + ".at(path, " + w + ")"
	switch {
	case p.Required:
		v.Decl = c.typeName(t)
		v.Decode = c.decode(t, c.J+".required(obj, "+w+", path)", at, 0)
		v.Encode = "json[" + w + "] = " + c.encode(t, "this."+v.Name, 0)
	case t.nullable:
		opt := m.names.Optional
		v.Decl = opt + "<" + c.typeName(t) + "> = " + opt + ".Absent"
		v.Decode = "if (obj.containsKey(" + w + ")) " + opt + ".Present(" + c.decode(t, "obj.getValue("+w+")", at, 0) + ") else " + opt + ".Absent"
		v.Encode = "(this." + v.Name + " as? " + opt + ".Present)?.let { m -> json[" + w + "] = " + c.encode(t, "m.value", 0) + " }"
	default:
		v.Decl = c.typeName(t) + "? = null"
		v.Decode = "obj[" + w + "]?.let { m -> " + c.decode(t, "m", at, 0) + " }"
		v.Encode = "this." + v.Name + "?.let { m -> json[" + w + "] = " + c.encode(t, "m", 0) + " }"
	}
	return v
}

// enumViewOf builds one enum class's view.
func enumViewOf(j string, n *ir.Node, doc string) *enumView {
	v := &enumView{J: j, Name: n.KotlinName, Doc: kdoc("", doc)}
	for i, val := range n.Values {
		v.Values = append(v.Values, enumValueView{Const: val.KotlinName, Wire: kotlinString(val.Value), Last: i == len(n.Values)-1})
	}
	return v
}

// taggedView builds one sealed class's view. The variant classes are
// nested in it, so the classes they hold are named with the package.
func (m *model) taggedView(c codec, n *ir.Node, doc string) *taggedView {
	doc += fmt.Sprintf("\n\nIt is one of its variants, told apart by the member %q.", n.Disc)
	v := &taggedView{J: c.J, Name: n.KotlinName, Doc: kdoc("", doc), Discriminator: kotlinString(n.Disc)}
	qc := codec{J: c.J, qual: kotlinPackage(m.p.Targets.KotlinPackage) + "."}
	for _, va := range n.Variants {
		t := use(va.Node)
		t.nullable = false
		v.Variants = append(v.Variants, taggedVariantView{Name: va.KotlinName, Value: kotlinString(va.Value),
			Type: qc.typeName(t), Decode: qc.decode(t, "element", "path", 0)})
	}
	return v
}

// unionViewOf builds one open union's view.
func unionViewOf(c codec, n *ir.Node, doc string) *unionView {
	var names []string
	for _, va := range n.Variants {
		names = append(names, va.KotlinName)
	}
	doc += fmt.Sprintf("\n\nIt holds the JSON value as received (null included); the as… functions decode it as the variant %s.", strings.Join(names, ", "))
	v := &unionView{J: c.J, Name: n.KotlinName, Doc: kdoc("", doc)}
	for _, va := range n.Variants {
		t := use(va.Node)
		v.Variants = append(v.Variants, unionVariantView{Name: va.KotlinName, Type: c.typeName(t),
			Decode: c.decode(t, "json", `""`, 0), Encode: c.encode(t, "value", 0)})
	}
	return v
}

// docOf returns a schema's title and description as one text.
func docOf(m map[string]any) string {
	var parts []string
	for _, k := range []string{"title", "description"} {
		if s, ok := m[k].(string); ok && s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "\n\n")
}

// propDoc is a property's KDoc: its title and description and the facts
// its type does not carry (format, default).
func propDoc(n *ir.Node) string {
	m := n.Obj()
	var parts []string
	if d := docOf(m); d != "" {
		parts = append(parts, d)
	}
	if f, ok := m["format"].(string); ok {
		parts = append(parts, "Format: "+f+".")
	}
	if d, ok := m["default"]; ok {
		parts = append(parts, "Default: "+compactJSON(d)+" (applied by the caller, not by decoding).")
	}
	return strings.Join(parts, "\n\n")
}

// compactJSON renders a decoded JSON value compactly, for documentation.
func compactJSON(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(data)
}
