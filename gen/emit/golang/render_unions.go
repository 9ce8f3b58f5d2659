package golang

import (
	"github.com/dave/jennifer/jen"
)

// renderTagged renders a discriminated union: one pointer per variant,
// exactly one set, and JSON methods that write and read the
// discriminator.
//
//	type PlaceOrderInputPricing struct {
//		Market *PlaceOrderMarketPricing
//	}
func renderTagged(f *jen.File, d *decl) {
	var fields []jen.Code
	for _, v := range d.variants {
		fields = append(fields, jen.Comment("// "+v.name+" is set when "+quoteComment(d.disc)+" is "+quoteComment(v.value)+"."))
		fields = append(fields, jen.Id(v.name).Op("*").Add(v.typ.code))
	}
	f.Type().Id(d.name).Struct(fields...)
	renderTaggedMarshal(f, d)
	renderTaggedUnmarshal(f, d)
}

// quoteComment quotes spec text for a comment line.
func quoteComment(s string) string {
	return "\"" + commentLines(s)[0] + "\""
}

// renderTaggedMarshal renders MarshalJSON of a tagged union.
//
//	func (u X) MarshalJSON() ([]byte, error) {
//		switch {
//		case u.Market != nil:
//			v := *u.Market
//			v.Kind = "market"
//			return json.Marshal(v)
//		}
//		return nil, errors.New("X: no variant is set")
//	}
func renderTaggedMarshal(f *jen.File, d *decl) {
	var cases []jen.Code
	for _, v := range d.variants {
		body := []jen.Code{jen.Id("v").Op(":=").Op("*").Id("u").Dot(v.name)}
		if v.discField != "" {
			body = append(body, jen.Id("v").Dot(v.discField).Op("=").Lit(v.value))
		}
		cases = append(cases, jen.Case(jen.Id("u").Dot(v.name).Op("!=").Nil()).Block(
			append(body, jen.Return(jen.Qual(pkgJSON, "Marshal").Call(jen.Id("v"))))...,
		))
	}
	f.Comment("// MarshalJSON encodes the variant that is set, with its discriminator.")
	f.Func().Params(jen.Id("u").Id(d.name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		jen.Switch().Block(cases...),
		jen.Return(jen.Nil(), jen.Qual(pkgErrors, "New").Call(jen.Lit(d.name+": no variant is set"))),
	)
}

// renderTaggedUnmarshal renders UnmarshalJSON of a tagged union.
//
//	func (u *X) UnmarshalJSON(data []byte) error {
//		var head struct {
//			D string `json:"kind"`
//		}
//		if err := json.Unmarshal(data, &head); err != nil {
//			return err
//		}
//		*u = X{}
//		switch head.D {
//		case "market":
//			u.Market = new(PlaceOrderMarketPricing)
//			return json.Unmarshal(data, u.Market)
//		}
//		return fmt.Errorf("X: unknown %s %q", "kind", head.D)
//	}
func renderTaggedUnmarshal(f *jen.File, d *decl) {
	var cases []jen.Code
	for _, v := range d.variants {
		cases = append(cases, jen.Case(jen.Lit(v.value)).Block(
			jen.Id("u").Dot(v.name).Op("=").New(v.typ.code),
			jen.Return(jen.Qual(pkgJSON, "Unmarshal").Call(jen.Id("data"), jen.Id("u").Dot(v.name))),
		))
	}
	f.Comment("// UnmarshalJSON decodes the variant its discriminator names.")
	f.Func().Params(jen.Id("u").Op("*").Id(d.name)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(
		jen.Var().Id("head").Struct(jen.Id("D").String().Tag(map[string]string{"json": d.disc})),
		jen.If(jen.Err().Op(":=").Qual(pkgJSON, "Unmarshal").Call(jen.Id("data"), jen.Op("&").Id("head")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Op("*").Id("u").Op("=").Id(d.name).Values(),
		jen.Switch(jen.Id("head").Dot("D")).Block(cases...),
		jen.Return(jen.Qual(pkgFmt, "Errorf").Call(jen.Lit(d.name+": unknown %s %q"), jen.Lit(d.disc), jen.Id("head").Dot("D"))),
	)
}

// renderRaw renders a union kept as raw JSON, with one accessor and one
// constructor per variant.
//
//	type X json.RawMessage
//
//	func (x X) MarshalJSON() ([]byte, error) {
//		if len(x) == 0 {
//			return []byte("null"), nil
//		}
//		return x, nil
//	}
//
//	func (x *X) UnmarshalJSON(data []byte) error {
//		*x = append((*x)[:0], data...)
//		return nil
//	}
func renderRaw(f *jen.File, d *decl) {
	f.Type().Id(d.name).Qual(pkgJSON, "RawMessage")
	f.Comment("// MarshalJSON returns the JSON held, or null when empty.")
	f.Func().Params(jen.Id("x").Id(d.name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		jen.If(jen.Len(jen.Id("x")).Op("==").Lit(0)).Block(jen.Return(jen.Index().Byte().Call(jen.Lit("null")), jen.Nil())),
		jen.Return(jen.Id("x"), jen.Nil()),
	)
	f.Comment("// UnmarshalJSON keeps a copy of data.")
	f.Func().Params(jen.Id("x").Op("*").Id(d.name)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(
		jen.Op("*").Id("x").Op("=").Append(jen.Parens(jen.Op("*").Id("x")).Index(jen.Empty(), jen.Lit(0)), jen.Id("data").Op("...")),
		jen.Return(jen.Nil()),
	)
	for _, v := range d.variants {
		renderVariant(f, d, v)
	}
}

// renderVariant renders the accessor and constructor of a raw union's
// variant.
//
//	func (x X) AsString() (string, error) {
//		var v string
//		err := json.Unmarshal(x, &v)
//		return v, err
//	}
//
//	func XFromString(v string) (X, error) {
//		data, err := json.Marshal(v)
//		return X(data), err
//	}
func renderVariant(f *jen.File, d *decl, v *variant) {
	f.Comment("// As" + v.name + " decodes the JSON held as the " + v.name + " variant.")
	f.Func().Params(jen.Id("x").Id(d.name)).Id("As"+v.name).Params().Params(v.typ.code, jen.Error()).Block(
		jen.Var().Id("v").Add(v.typ.code),
		jen.Err().Op(":=").Qual(pkgJSON, "Unmarshal").Call(jen.Id("x"), jen.Op("&").Id("v")),
		jen.Return(jen.Id("v"), jen.Err()),
	)
	f.Comment("// " + v.ctor + " encodes v as a " + d.name + ".")
	f.Func().Id(v.ctor).Params(jen.Id("v").Add(v.typ.code)).Params(jen.Id(d.name), jen.Error()).Block(
		jen.List(jen.Id("data"), jen.Err()).Op(":=").Qual(pkgJSON, "Marshal").Call(jen.Id("v")),
		jen.Return(jen.Id(d.name).Call(jen.Id("data")), jen.Err()),
	)
}
