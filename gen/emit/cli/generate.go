package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/cetpgen/cetpgen/gen/catalog"
	"github.com/cetpgen/cetpgen/gen/emit"
	"github.com/cetpgen/cetpgen/gen/internal/par"
	"github.com/cetpgen/cetpgen/gen/ir"
	"github.com/cetpgen/cetpgen/runtime/cetpcli"
	"github.com/dave/jennifer/jen"
)

// Dir is the target's directory under the output root.
const Dir = "cli"

// Generate renders the CLI of one Provider into cli/<slug>/: main.go, the
// data table app.go, and catalog.go with the command registry, the catalog
// and its index, built once from the same table through every gate of
// gen/catalog. main.go and app.go do not depend on the catalog, so they
// are rendered while it builds.
func Generate(p *ir.Provider) ([]emit.File, error) {
	app, err := BuildApp(p)
	if err != nil {
		return nil, err
	}
	var table []emit.File
	var res *catalog.Result
	var tableErr error
	par.Do(
		func() { table, tableErr = renderTable(p, app) },
		func() { res, err = catalog.Build(Input(p, app)) },
	)
	if err != nil {
		return nil, fmt.Errorf("catalog: %s: %w", p.Dir, err)
	}
	if tableErr != nil {
		return nil, tableErr
	}
	reg, err := RegistryJSON(app)
	if err != nil {
		return nil, err
	}
	data, err := renderCatalog(p, reg, res)
	if err != nil {
		return nil, fmt.Errorf("catalog: catalog.go: %w", err)
	}
	return append(table, emit.File{Path: filePath(p, "catalog.go"), Data: data}), nil
}

// filePath is the output path of one file of the CLI of p.
func filePath(p *ir.Provider, name string) string { return Dir + "/" + p.Slug + "/" + name }

// renderTable renders main.go and the data table app.go.
func renderTable(p *ir.Provider, app *cetpcli.App) ([]emit.File, error) {
	parts := []struct {
		name string
		body func(f *jen.File)
	}{
		{"main.go", func(f *jen.File) { renderMain(f, p, app) }},
		{"app.go", nil},
	}
	var files []emit.File
	for _, part := range parts {
		var data []byte
		var err error
		if part.body != nil {
			data, err = renderFile(p, part.body)
		} else {
			data, err = renderAppFile(p, app)
		}
		if err != nil {
			return nil, fmt.Errorf("catalog: %s: %w", part.name, err)
		}
		files = append(files, emit.File{Path: filePath(p, part.name), Data: data})
	}
	return files, nil
}

// appMarker is the declaration of the table in app.go before its literal
// is put in.
const appMarker = "var app = &cetpcli.App{}\n"

// renderAppFile renders app.go: jennifer formats the file with an empty
// table, and the table's literal, laid out as gofmt lays it out, takes its
// place; a table appendLiteral cannot lay out is rendered by jennifer
// whole.
func renderAppFile(p *ir.Provider, app *cetpcli.App) ([]byte, error) {
	lit, ok := appendLiteral(nil, reflect.ValueOf(app), 0, false)
	if !ok {
		return renderFile(p, func(f *jen.File) { renderApp(f, app) })
	}
	skeleton, err := renderFile(p, func(f *jen.File) {
		appComment(f, app)
		f.Var().Id("app").Op("=").Op("&").Qual(pkgCetpcli, "App").Values()
	})
	if err != nil {
		return nil, err
	}
	before, after, found := bytes.Cut(skeleton, []byte(appMarker))
	if !found {
		return nil, fmt.Errorf("the table's declaration is missing from the formatted file")
	}
	out := make([]byte, 0, len(skeleton)+len(lit))
	out = append(append(out, before...), "var app = "...)
	out = append(append(out, lit...), '\n')
	return append(out, after...), nil
}

// RegistryJSON is the command registry of app in the reviewed file format
// (schema_command_registry.json), indented.
func RegistryJSON(app *cetpcli.App) ([]byte, error) {
	b, err := json.MarshalIndent(registry(app), "", "  ")
	return append(b, '\n'), err
}

// renderFile renders one file of package main with the generated-code
// header.
func renderFile(p *ir.Provider, body func(f *jen.File)) ([]byte, error) {
	f := jen.NewFile("main")
	f.ImportName(pkgCetpcli, "cetpcli")
	f.ImportName(pkgCatalog, "catalog")
	for _, l := range emit.HeaderLines(p.File) {
		f.HeaderComment("// " + l)
	}
	body(f)
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// renderMain renders the package doc and main.
//
//	// Command cetp-alerts is the generated CETP v2 Consumer CLI of Example App …
//	package main
//
//	func main() {
//		cetpcli.Main(app, catalog.LazyString(catalogJSON, catalogIndexJSON))
//	}
func renderMain(f *jen.File, p *ir.Provider, app *cetpcli.App) {
	f.PackageComment(fmt.Sprintf("// Command %s is the generated CETP v2 Consumer CLI of %s (provider_id %s): one command per tool, and `%s schema` for agents.",
		app.Name, oneLine(p.Name), p.ID, app.Name))
	f.PackageComment("//")
	f.PackageComment(fmt.Sprintf("// Build it with `go build -o %s ./out/%s/%s` in the cetpgen module; see docs/catalog.md.", app.Name, Dir, p.Slug))
	f.Comment("// main runs the CLI with the catalog of catalog.go.")
	f.Func().Id("main").Params().Block(
		jen.Qual(pkgCetpcli, "Main").Call(jen.Id("app"), jen.Qual(pkgCatalog, "LazyString").Call(
			jen.Id("catalogJSON"), jen.Id("catalogIndexJSON"))),
	)
}

// renderApp renders the data table.
//
//	// app is the command table of cetp-alerts.
//	var app = &cetpcli.App{…}
func renderApp(f *jen.File, app *cetpcli.App) {
	appComment(f, app)
	f.Var().Id("app").Op("=").Add(literal(reflect.ValueOf(app), false))
}

// appComment is the doc comment of the table.
func appComment(f *jen.File, app *cetpcli.App) {
	f.Comment(fmt.Sprintf("// app is the command table of %s: one command per tool, with the flags of its input schema.", app.Name))
}

// renderCatalog renders the registry, the catalog and its index as string
// constants, each line of JSON one line of Go. The literals, megabytes for
// a large Provider, are put in after jennifer has formatted the file (gofmt
// leaves a raw string as it is), so that formatting does not scan them: the
// formatted file is split around each placeholder and the pieces and
// literals are written once into a buffer of the file's final size.
//
//	// commandRegistry is the command registry (schema_command_registry.json) the catalog was bound from.
//	const commandRegistry = `{…}`
func renderCatalog(p *ir.Provider, reg []byte, res *catalog.Result) ([]byte, error) {
	consts := []struct {
		name, doc string
		data      []byte
	}{
		{"commandRegistry", "is the command registry (schema_command_registry.json) the catalog was bound from.", reg},
		{"catalogJSON", "is the Agent schema catalog (schema_catalog.json) the schema command serves.", res.Data},
		{"catalogIndexJSON", "is the catalog's index (schema_catalog.index.json).", res.Index},
	}
	skeleton, err := renderFile(p, func(f *jen.File) {
		for _, c := range consts {
			f.Comment("// " + c.name + " " + c.doc)
			f.Const().Id(c.name).Op("=").Id(placeholder(c.name))
		}
	})
	if err != nil {
		return nil, err
	}
	size := len(skeleton)
	for _, c := range consts {
		size += goStringLen(c.data)
	}
	out := make([]byte, 0, size)
	for _, c := range consts {
		before, after, ok := bytes.Cut(skeleton, []byte(" = "+placeholder(c.name)+"\n"))
		if !ok {
			return nil, fmt.Errorf("the placeholder of %s is missing from the formatted file", c.name)
		}
		out = append(out, before...)
		out = append(out, " = "...)
		out = appendGoString(out, c.data)
		out = append(out, '\n')
		skeleton = after
	}
	return append(out, skeleton...), nil
}

// placeholder stands for the literal of constant name until the file is
// formatted.
func placeholder(name string) string { return "cetpgenLiteralOf_" + name }
