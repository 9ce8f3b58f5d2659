package golang

import (
	"github.com/dave/jennifer/jen"
)

// renderHelpers renders the helper types the declarations use.
func renderHelpers(f *jen.File, uses helperUses) {
	if uses.nullable {
		renderNullable(f)
	}
	if uses.dateTime {
		renderDateTime(f)
	}
}

// renderNullable renders Nullable, the type of members that are optional
// and nullable, with its constructors and JSON methods.
//
//	type Nullable[T any] struct {
//		Value T
//		Set   bool
//		Null  bool
//	}
func renderNullable(f *jen.File) {
	nt := jen.Id("Nullable").Types(jen.Id("T"))
	f.Comment("// Nullable is a member that is optional and nullable: absent (Set false), null (Set and Null)")
	f.Comment("// or a value (Set, not Null). The zero value is absent.")
	f.Type().Id("Nullable").Types(jen.Id("T").Any()).Struct(
		jen.Id("Value").Id("T"), jen.Id("Set").Bool(), jen.Id("Null").Bool(),
	)
	f.Comment("// NullableValue returns a present, non-null member holding v.")
	f.Func().Id("NullableValue").Types(jen.Id("T").Any()).Params(jen.Id("v").Id("T")).Add(nt).Block(
		jen.Return(jen.Id("Nullable").Types(jen.Id("T")).Values(jen.Dict{jen.Id("Value"): jen.Id("v"), jen.Id("Set"): jen.True()})))
	f.Comment("// NullableNull returns a present null member.")
	f.Func().Id("NullableNull").Types(jen.Id("T").Any()).Params().Add(nt).Block(
		jen.Return(jen.Id("Nullable").Types(jen.Id("T")).Values(jen.Dict{jen.Id("Set"): jen.True(), jen.Id("Null"): jen.True()})))
	f.Comment("// IsZero reports an absent member, which omitzero leaves out.")
	f.Func().Params(jen.Id("n").Add(nt)).Id("IsZero").Params().Bool().Block(jen.Return(jen.Op("!").Id("n").Dot("Set")))
	renderNullableJSON(f, nt)
}

// renderNullableJSON renders the JSON methods of Nullable.
//
//	func (n Nullable[T]) MarshalJSON() ([]byte, error) {
//		if n.Null || !n.Set {
//			return []byte("null"), nil
//		}
//		return json.Marshal(n.Value)
//	}
//
//	func (n *Nullable[T]) UnmarshalJSON(data []byte) error {
//		*n = Nullable[T]{Set: true, Null: string(data) == "null"}
//		if n.Null {
//			return nil
//		}
//		return json.Unmarshal(data, &n.Value)
//	}
func renderNullableJSON(f *jen.File, nt *jen.Statement) {
	f.Comment("// MarshalJSON encodes the value, or null.")
	f.Func().Params(jen.Id("n").Add(nt)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		jen.If(jen.Id("n").Dot("Null").Op("||").Op("!").Id("n").Dot("Set")).Block(jen.Return(jen.Index().Byte().Call(jen.Lit("null")), jen.Nil())),
		jen.Return(jen.Qual(pkgJSON, "Marshal").Call(jen.Id("n").Dot("Value"))),
	)
	f.Comment("// UnmarshalJSON records a present member: null or a value.")
	f.Func().Params(jen.Id("n").Op("*").Add(nt)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(
		jen.Op("*").Id("n").Op("=").Add(nt).Values(jen.Dict{jen.Id("Set"): jen.True(), jen.Id("Null"): jen.String().Call(jen.Id("data")).Op("==").Lit("null")}),
		jen.If(jen.Id("n").Dot("Null")).Block(jen.Return(jen.Nil())),
		jen.Return(jen.Qual(pkgJSON, "Unmarshal").Call(jen.Id("data"), jen.Op("&").Id("n").Dot("Value"))),
	)
}

// renderDateTime renders DateTime, the type of date-time strings: kept as
// written so that a value encodes back unchanged, parsed on demand.
//
//	type DateTime string
//
//	func (d DateTime) Time() (time.Time, error) { return time.Parse(time.RFC3339Nano, string(d)) }
//
//	func DateTimeOf(t time.Time) DateTime { return DateTime(t.Format(time.RFC3339Nano)) }
func renderDateTime(f *jen.File) {
	f.Comment("// DateTime is a JSON Schema date-time (RFC 3339) kept exactly as written, so that it")
	f.Comment("// encodes back unchanged; Time parses it.")
	f.Type().Id("DateTime").String()
	f.Comment("// Time parses d as RFC 3339.")
	f.Func().Params(jen.Id("d").Id("DateTime")).Id("Time").Params().Params(jen.Qual(pkgTime, "Time"), jen.Error()).Block(
		jen.Return(jen.Qual(pkgTime, "Parse").Call(jen.Qual(pkgTime, "RFC3339Nano"), jen.String().Call(jen.Id("d")))))
	f.Comment("// DateTimeOf formats t as RFC 3339.")
	f.Func().Id("DateTimeOf").Params(jen.Id("t").Qual(pkgTime, "Time")).Id("DateTime").Block(
		jen.Return(jen.Id("DateTime").Call(jen.Id("t").Dot("Format").Call(jen.Qual(pkgTime, "RFC3339Nano")))))
}
