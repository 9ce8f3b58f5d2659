package cli

import (
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cetpgen/cetpgen/runtime/cetpcli"
	"github.com/dave/jennifer/jen"
)

// pkgCetpcli and pkgCatalog are the runtime packages a generated CLI
// imports.
const (
	pkgCetpcli = "github.com/cetpgen/cetpgen/runtime/cetpcli"
	pkgCatalog = "github.com/cetpgen/cetpgen/runtime/catalog"
)

// kindNames are the names of the cetpcli.Kind constants.
var kindNames = map[cetpcli.Kind]string{cetpcli.String: "String", cetpcli.Integer: "Integer",
	cetpcli.Number: "Number", cetpcli.Boolean: "Boolean", cetpcli.Enum: "Enum", cetpcli.JSON: "JSON"}

// literal renders v, a value of a cetpcli type, as a Go composite literal
// that leaves zero fields out; elided leaves out the type of a struct, as
// inside a slice. The literal compiles to a value equal to v.
//
//	&cetpcli.App{Name: "cetp-alerts", Commands: []cetpcli.Command{{Path: "alert create", …}}}
func literal(v reflect.Value, elided bool) jen.Code {
	switch v.Kind() {
	case reflect.Pointer:
		return jen.Op("&").Add(literal(v.Elem(), false))
	case reflect.Struct:
		return structLiteral(v, elided)
	case reflect.Slice:
		return sliceLiteral(v)
	case reflect.Bool:
		return jen.Lit(v.Bool())
	}
	if k, ok := v.Interface().(cetpcli.Kind); ok {
		// cetpcli.Number
		return jen.Qual(pkgCetpcli, kindNames[k])
	}
	return jen.Lit(v.String())
}

// structLiteral renders the non-zero fields of a struct, one per line.
//
//	cetpcli.Flag{
//		Kind: cetpcli.Number,
//		Name: "price",
//	}
func structLiteral(v reflect.Value, elided bool) jen.Code {
	d := jen.Dict{}
	for i := range v.NumField() {
		if f := v.Field(i); !f.IsZero() {
			d[jen.Id(v.Type().Field(i).Name)] = literal(f, false)
		}
	}
	if elided {
		return jen.Values(d)
	}
	return jen.Qual(pkgCetpcli, v.Type().Name()).Values(d)
}

// sliceLiteral renders a slice: strings on one line, structs one per line.
//
//	[]string{"alert rm"}
//	[]cetpcli.Flag{
//		{…},
//	}
func sliceLiteral(v reflect.Value) jen.Code {
	elem := v.Type().Elem()
	if elem.Kind() == reflect.String {
		return jen.Index().String().ValuesFunc(func(g *jen.Group) {
			for i := range v.Len() {
				g.Lit(v.Index(i).String())
			}
		})
	}
	return jen.Index().Qual(pkgCetpcli, elem.Name()).ValuesFunc(func(g *jen.Group) {
		for i := range v.Len() {
			g.Line().Add(literal(v.Index(i), true))
		}
		g.Line()
	})
}

// goString renders s as a Go string expression: raw string literals, with
// the characters a raw literal cannot hold (backquote, byte order mark)
// quoted and concatenated, so that every line of s stays one line.
//
//	`{"catalog": …` + "`" + `…`
func goString(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('`')
	for {
		i := strings.IndexAny(s, "`\uFEFF")
		if i < 0 {
			break
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		b.WriteString(s[:i] + "` + " + strconv.Quote(s[i:i+size]) + " + `")
		s = s[i+size:]
	}
	b.WriteString(s)
	b.WriteByte('`')
	return b.String()
}
