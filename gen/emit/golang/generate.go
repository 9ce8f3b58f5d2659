package golang

import (
	"bytes"
	"errors"
	"fmt"
	"go/token"
	"sync"

	"github.com/cetpgen/cetpgen/gen/emit"
	"github.com/cetpgen/cetpgen/gen/ir"
	"github.com/dave/jennifer/jen"
)

// Dir is the target's directory under the output root.
const Dir = "go"

// Generate renders the Go package of one Provider: doc.go, types.go,
// provider.go and client.go under go/<slug>/. Only types.go needs the
// schema mapping, so the other files render while it runs; every file only
// reads what it is given, and their order and bytes do not depend on
// scheduling.
func Generate(p *ir.Provider) ([]emit.File, error) {
	if !token.IsIdentifier(p.Targets.GoPackage) {
		return nil, fmt.Errorf("go: package name %q is not a Go identifier (a keyword?); set targets.go.package", p.Targets.GoPackage)
	}
	tools := toolList(p)
	files := make([]emit.File, 4)
	errs := make([]error, len(files))
	var wg sync.WaitGroup
	part := func(i int, name string, render func(f *jen.File)) {
		files[i].Path = Dir + "/" + p.Slug + "/" + name
		if files[i].Data, errs[i] = renderFile(p, render); errs[i] != nil {
			errs[i] = fmt.Errorf("go: %s: %w", name, errs[i])
		}
	}
	wg.Go(func() { part(2, "provider.go", func(f *jen.File) { renderProvider(f, p, tools) }) })
	wg.Go(func() { part(3, "client.go", func(f *jen.File) { renderClient(f, p, tools) }) })
	wg.Go(func() { part(0, "doc.go", func(f *jen.File) { renderDoc(f, p) }) })
	m := mapProvider(p)
	part(1, "types.go", func(f *jen.File) { renderTypes(f, m) })
	wg.Wait()
	return files, errors.Join(errs...)
}

// toolList pairs each tool with its Go names, which the IR allocated.
func toolList(p *ir.Provider) []toolNames {
	var tools []toolNames
	for _, t := range p.Tools {
		root := func(s *ir.Schema) string {
			if s == nil || s.Graph == nil {
				return ""
			}
			return s.Graph.Root.GoName
		}
		tools = append(tools, toolNames{tool: t, method: t.Names.GoMethod, in: root(t.Input), out: root(t.Output),
			inSchema: t.Names.GoInputSchema, outSchema: t.Names.GoOutputSchema})
	}
	return tools
}

// renderFile renders one file with the generated-code header.
func renderFile(p *ir.Provider, body func(f *jen.File)) ([]byte, error) {
	f := jen.NewFile(p.Targets.GoPackage)
	f.ImportName(pkgProvider, "provider")
	f.ImportName(pkgConsumer, "consumer")
	f.ImportName(pkgProtocol, "protocol")
	f.ImportName(pkgJSONVal, "jsonval")
	for _, l := range emit.HeaderLines(p.File) {
		f.HeaderComment("// " + commentLines(l)[0])
	}
	body(f)
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// renderDoc renders the package doc and the pin to the runtime version.
//
//	// Package alerts is the generated CETP v2 Provider and Client of Example App.
//	package alerts
//
//	var _ = consumer.GeneratedCodeVersion1
func renderDoc(f *jen.File, p *ir.Provider) {
	var doc docLines
	doc.para(fmt.Sprintf("Package %s is the generated CETP v2 Provider and Client of %s (provider_id %s).", p.Targets.GoPackage, p.Name, p.ID))
	doc.para(p.Description)
	doc.para("Implement Handler and pass it to New to serve the tools on the runtime Provider engine; call them with Client. The types follow the mapping of docs/go-mapping.md in the cetpgen repository.")
	for _, l := range doc {
		if l == "" {
			f.PackageComment("//")
		} else {
			f.PackageComment("// " + l)
		}
	}
	f.Comment("// This package was generated for this version of the runtime; it does not compile against another.")
	f.Var().Id("_").Op("=").Qual(pkgConsumer, "GeneratedCodeVersion1")
	f.Comment("// ProviderID is the provider_id of " + oneLine(p.Name) + ".")
	f.Const().Id("ProviderID").Op("=").Lit(p.ID)
	f.Comment("// Revision is the revision of the tool set this package was generated from.")
	f.Const().Id("Revision").Op("=").Lit(p.Revision)
}

// renderTypes renders every declaration in mapping order, then helpers.
func renderTypes(f *jen.File, m *mapper) {
	for _, d := range m.decls {
		renderDecl(f, d)
	}
	renderHelpers(f, m)
}

// renderProvider renders the Handler, the constructor and the schemas.
func renderProvider(f *jen.File, p *ir.Provider, tools []toolNames) {
	renderHandler(f, p, tools)
	renderNew(f, p)
	renderDescriptor(f, p)
	renderTools(f, p, tools)
	renderSchemas(f, tools)
}
