package cli

import (
	"bytes"
	"reflect"
	"slices"
	"strconv"
	"strings"

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

// appendLiteral appends the text gofmt gives literal(v, false), for a
// top-level declaration: a struct of one one-line field on one line, else
// its fields one per line, in name order, the values of consecutive
// one-line fields aligned one space after the longest key, and a field
// whose value spans lines (a slice of structs) written after a single
// space, between such runs. It reports false, and writes nothing useful,
// for a value it does not know how to lay out (an empty slice of structs,
// a struct whose only field spans lines), which is then rendered through
// jennifer. The
// table of a large Provider is most of app.go, and formatting it with
// go/format took most of rendering it; TestAppendLiteralMatchesJennifer
// holds the two to the same bytes.
func appendLiteral(b []byte, v reflect.Value, depth int, elided bool) ([]byte, bool) {
	switch v.Kind() {
	case reflect.Pointer:
		return appendLiteral(append(b, '&'), v.Elem(), depth, false)
	case reflect.Struct:
		return appendStructLiteral(b, v, depth, elided)
	case reflect.Slice:
		return appendSliceLiteral(b, v, depth)
	case reflect.Bool:
		return strconv.AppendBool(b, v.Bool()), true
	}
	if k, ok := v.Interface().(cetpcli.Kind); ok {
		return append(append(b, "cetpcli."...), kindNames[k]...), true
	}
	// gofmt stops aligning at a line it measures as longer than 1e6.
	return strconv.AppendQuote(b, v.String()), len(v.String()) < 100_000
}

// literalField is one non-zero field of a struct literal.
type literalField struct {
	name      string
	value     reflect.Value
	multiLine bool
}

func appendStructLiteral(b []byte, v reflect.Value, depth int, elided bool) ([]byte, bool) {
	if !elided {
		b = append(append(b, "cetpcli."...), v.Type().Name()...)
	}
	var fields []literalField
	for i := range v.NumField() {
		if f := v.Field(i); !f.IsZero() {
			multi := f.Kind() == reflect.Slice && f.Type().Elem().Kind() == reflect.Struct
			if multi && f.Len() == 0 {
				return b, false
			}
			fields = append(fields, literalField{v.Type().Field(i).Name, f, multi})
		}
	}
	switch {
	case len(fields) == 0:
		return append(b, "{}"...), true
	case len(fields) == 1 && fields[0].multiLine:
		return b, false
	case len(fields) == 1:
		b = append(append(append(b, '{'), fields[0].name...), ": "...)
		b, ok := appendLiteral(b, fields[0].value, depth, false)
		return append(b, '}'), ok
	}
	slices.SortFunc(fields, func(x, y literalField) int { return strings.Compare(x.name, y.name) })
	b = append(b, "{\n"...)
	ok := true
	for i := 0; i < len(fields) && ok; {
		end := i + 1
		for !fields[i].multiLine && end < len(fields) && !fields[end].multiLine {
			end++
		}
		b, ok = appendFieldRun(b, fields[i:end], depth+1)
		i = end
	}
	return append(appendTabs(b, depth), '}'), ok
}

// appendFieldRun writes a run of one-line fields with their values
// aligned, or one multi-line field.
func appendFieldRun(b []byte, run []literalField, depth int) ([]byte, bool) {
	width := 0
	for _, f := range run {
		width = max(width, len(f.name))
	}
	ok := true
	for _, f := range run {
		b = append(appendTabs(b, depth), f.name...)
		b = append(b, ':')
		for range width - len(f.name) + 1 {
			b = append(b, ' ')
		}
		var fine bool
		b, fine = appendLiteral(b, f.value, depth, false)
		ok = ok && fine
		b = append(b, ",\n"...)
	}
	return b, ok
}

// appendSliceLiteral writes strings on one line and structs one per line.
func appendSliceLiteral(b []byte, v reflect.Value, depth int) ([]byte, bool) {
	elem := v.Type().Elem()
	if elem.Kind() == reflect.String {
		b = append(b, "[]string{"...)
		for i := range v.Len() {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = strconv.AppendQuote(b, v.Index(i).String())
		}
		return append(b, '}'), true
	}
	b = append(append(append(b, "[]cetpcli."...), elem.Name()...), "{\n"...)
	ok := true
	for i := range v.Len() {
		var fine bool
		b, fine = appendLiteral(appendTabs(b, depth+1), v.Index(i), depth+1, true)
		ok = ok && fine
		b = append(b, ",\n"...)
	}
	return append(appendTabs(b, depth), '}'), ok
}

func appendTabs(b []byte, n int) []byte {
	for range n {
		b = append(b, '\t')
	}
	return b
}
