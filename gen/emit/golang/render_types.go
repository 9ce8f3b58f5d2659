package golang

import (
	"github.com/dave/jennifer/jen"
)

// renderDecl renders one declaration with its doc comment and methods.
func renderDecl(f *jen.File, d *decl) {
	for _, c := range d.doc.code() {
		f.Add(c)
	}
	switch d.kind {
	case dStruct:
		renderStruct(f, d)
	case dEnum:
		renderEnum(f, d)
	case dTagged:
		renderTagged(f, d)
	case dRaw:
		renderRaw(f, d)
	case dDefined:
		// type ListAlertsTags []string
		f.Type().Id(d.name).Add(d.under.code)
	case dAlias:
		// type ListAlertsNote = json.RawMessage
		f.Type().Id(d.name).Op("=").Add(d.under.code)
	}
}

// renderStruct renders a struct, and its JSON methods when a member name
// cannot be a tag.
//
//	type CreateAlertInput struct {
//		Price  float64 `json:"price"`
//		Symbol string  `json:"symbol"`
//	}
func renderStruct(f *jen.File, d *decl) {
	var fields []jen.Code
	for _, fl := range d.fields {
		fields = append(fields, fl.doc.code()...)
		fields = append(fields, jen.Id(fl.name).Add(fl.typ).Tag(map[string]string{"json": tagOf(fl)}))
	}
	f.Type().Id(d.name).Struct(fields...)
	if d.hasAwkward() {
		renderMembers(f, d)
	}
}

// tagOf is a field's json tag value.
func tagOf(fl *field) string {
	switch {
	case fl.awkward:
		return "-"
	case fl.omit:
		return fl.json + ",omitzero"
	}
	return fl.json
}

// renderMembers renders the JSON methods of a struct with members whose
// names a tag cannot carry (see the members helpers).
//
//	func (v X) MarshalJSON() ([]byte, error) {
//		type plain X
//		return marshalMembers(plain(v), []member{{"a,b", v.AB, true}})
//	}
//	func (v *X) UnmarshalJSON(data []byte) error {
//		type plain X
//		if err := json.Unmarshal(data, (*plain)(v)); err != nil {
//			return err
//		}
//		return unmarshalMembers(data, map[string]any{"a,b": &v.AB})
//	}
func renderMembers(f *jen.File, d *decl) {
	var list []jen.Code
	targets := jen.Dict{}
	for _, fl := range d.fields {
		if fl.awkward {
			list = append(list, jen.Values(jen.Lit(fl.json), jen.Id("v").Dot(fl.name), jen.Lit(fl.omit)))
			targets[jen.Lit(fl.json)] = jen.Op("&").Id("v").Dot(fl.name)
		}
	}
	f.Comment("// MarshalJSON encodes " + d.name + ", including the members whose names a struct tag cannot carry.")
	f.Func().Params(jen.Id("v").Id(d.name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		jen.Type().Id("plain").Id(d.name),
		jen.Return(jen.Id("marshalMembers").Call(jen.Id("plain").Call(jen.Id("v")), jen.Index().Id("member").Values(list...))),
	)
	f.Comment("// UnmarshalJSON decodes " + d.name + ", including the members whose names a struct tag cannot carry.")
	f.Func().Params(jen.Id("v").Op("*").Id(d.name)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(
		jen.Type().Id("plain").Id(d.name),
		jen.If(jen.Err().Op(":=").Qual(pkgJSON, "Unmarshal").Call(jen.Id("data"), jen.Parens(jen.Op("*").Id("plain")).Call(jen.Id("v"))), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Return(jen.Id("unmarshalMembers").Call(jen.Id("data"), jen.Map(jen.String()).Any().Values(targets))),
	)
}

// renderEnum renders a string enum and its constants, in schema order.
//
//	type ListAlertsInputStatus string
//
//	const (
//		ListAlertsInputStatusActive ListAlertsInputStatus = "active"
//	)
func renderEnum(f *jen.File, d *decl) {
	f.Type().Id(d.name).String()
	var defs []jen.Code
	for _, v := range d.values {
		defs = append(defs, jen.Id(v.name).Id(d.name).Op("=").Lit(v.value))
	}
	f.Comment("// The values of " + d.name + ".")
	f.Const().Defs(defs...)
}
