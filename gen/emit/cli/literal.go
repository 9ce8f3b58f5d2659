package cli

import (
	"bytes"
	"reflect"
	"strconv"

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

// bom is the byte order mark, which a Go source file may not contain.
const bom = "\uFEFF"

// Quoted forms of the characters a raw string literal cannot hold, each
// between the end of one raw literal and the start of the next.
var (
	quotedBackquote = "` + " + strconv.Quote("`") + " + `"
	quotedBOM       = "` + " + strconv.Quote(bom) + " + `"
)

// appendGoString appends s to b as a Go string expression: raw string
// literals, with the characters a raw literal cannot hold (backquote, byte
// order mark) quoted and concatenated, so that every line of s stays one
// line.
//
//	`{"catalog": …` + "`" + `…`
func appendGoString(b, s []byte) []byte {
	b = append(b, '`')
	for len(s) > 0 {
		i, n := nextUnraw(s)
		if i < 0 {
			b = append(b, s...)
			break
		}
		b = append(b, s[:i]...)
		if n == 1 {
			b = append(b, quotedBackquote...)
		} else {
			b = append(b, quotedBOM...)
		}
		s = s[i+n:]
	}
	return append(b, '`')
}

// nextUnraw returns the offset and length of the first backquote or byte
// order mark in s, or -1. Both searches are the fast ones of package
// bytes; a BOM is looked for only up to the next backquote.
func nextUnraw(s []byte) (int, int) {
	q := bytes.IndexByte(s, '`')
	head := s
	if q >= 0 {
		head = s[:q]
	}
	if m := bytes.Index(head, []byte(bom)); m >= 0 {
		return m, len(bom)
	}
	return q, 1
}

// goStringLen is the length appendGoString adds for s.
func goStringLen(s []byte) int {
	return len(s) + 2 + bytes.Count(s, []byte("`"))*(len(quotedBackquote)-1) +
		bytes.Count(s, []byte(bom))*(len(quotedBOM)-len(bom))
}
