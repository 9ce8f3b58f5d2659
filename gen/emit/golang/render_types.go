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

// renderStruct renders a struct, with an Extra field for the members
// beyond the declared ones that the schema admits, and JSON methods when
// it has extra members or members whose names a tag cannot carry.
//
//	type CreateAlertInput struct {
//		Price  jsonval.Number `json:"price"`
//		Symbol string         `json:"symbol"`
//		// Extra holds the members not declared above, by name.
//		Extra map[string]json.RawMessage `json:"-"`
//	}
func renderStruct(f *jen.File, d *decl) {
	var fields []jen.Code
	for _, fl := range d.fields {
		fields = append(fields, fl.doc.code()...)
		fields = append(fields, jen.Id(fl.name).Add(fl.typ).Tag(map[string]string{"json": tagOf(fl)}))
	}
	if d.extra != nil {
		fields = append(fields, jen.Comment("// Extra holds the members not declared above, by name; they are decoded and encoded"),
			jen.Comment("// with the declared ones."),
			jen.Id("Extra").Add(d.extra.code).Tag(map[string]string{"json": "-"}))
	}
	f.Type().Id(d.name).Struct(fields...)
	if d.needsMethods() {
		renderObjectMethods(f, d)
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

// renderObjectMethods renders the JSON methods of a struct through
// package jsonval, which matches member names exactly, keeps the extra
// members and encodes the members a tag cannot carry by name.
//
//	func (v X) MarshalJSON() ([]byte, error) {
//		type plain X
//		return jsonval.MarshalObject(plain(v), []string{"a", "a,b"}, []jsonval.Member{{Name: "a,b", Value: v.AB, Omit: true}}, v.Extra)
//	}
//
//	func (v *X) UnmarshalJSON(data []byte) error {
//		type plain X
//		return jsonval.UnmarshalObject(data, (*plain)(v), []string{"a", "a,b"}, []jsonval.Member{{Name: "a,b", Value: &v.AB}}, &v.Extra)
//	}
func renderObjectMethods(f *jen.File, d *decl) {
	var declared, enc, dec []jen.Code
	for _, fl := range d.fields {
		declared = append(declared, jen.Lit(fl.json))
		if fl.awkward {
			enc = append(enc, jen.Values(jen.Id("Name").Op(":").Lit(fl.json), jen.Id("Value").Op(":").Id("v").Dot(fl.name), jen.Id("Omit").Op(":").Lit(fl.omit)))
			dec = append(dec, jen.Values(jen.Id("Name").Op(":").Lit(fl.json), jen.Id("Value").Op(":").Op("&").Id("v").Dot(fl.name)))
		}
	}
	members := func(list []jen.Code) jen.Code {
		if len(list) == 0 {
			return jen.Nil()
		}
		return jen.Index().Qual(pkgJSONVal, "Member").Values(list...)
	}
	extraOut, extraIn, marshal, unmarshal := jen.Id("v").Dot("Extra"), jen.Op("&").Id("v").Dot("Extra"), jen.Qual(pkgJSONVal, "MarshalObject"), jen.Qual(pkgJSONVal, "UnmarshalObject")
	if d.extra == nil {
		extraOut, extraIn = jen.Nil(), jen.Nil()
		marshal, unmarshal = marshal.Types(tRaw.code), jen.Qual(pkgJSONVal, "UnmarshalObject").Types(tRaw.code)
	}
	f.Comment("// MarshalJSON encodes " + d.name + " with every member it holds.")
	f.Func().Params(jen.Id("v").Id(d.name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		jen.Type().Id("plain").Id(d.name),
		jen.Return(marshal.Call(jen.Id("plain").Call(jen.Id("v")), jen.Index().String().Values(declared...), members(enc), extraOut)),
	)
	f.Comment("// UnmarshalJSON decodes " + d.name + ", matching member names exactly.")
	f.Func().Params(jen.Id("v").Op("*").Id(d.name)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(
		jen.Type().Id("plain").Id(d.name),
		jen.Return(unmarshal.Call(jen.Id("data"), jen.Parens(jen.Op("*").Id("plain")).Call(jen.Id("v")), jen.Index().String().Values(declared...), members(dec), extraIn)),
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
