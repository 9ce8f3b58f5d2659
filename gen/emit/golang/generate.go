package golang

import (
	"cmp"
	"errors"
	"fmt"
	"go/token"
	"slices"

	"github.com/cetpgen/cetpgen/gen/emit"
	"github.com/cetpgen/cetpgen/gen/internal/par"
	"github.com/cetpgen/cetpgen/gen/ir"
	"github.com/dave/jennifer/jen"
)

// Dir is the target's directory under the output root.
const Dir = "go"

// Generate renders the Go package of one Provider: doc.go, types.go,
// provider.go and client.go under go/<slug>/. Each file is cut into
// chunks of declarations that are rendered and formatted on the pool and
// joined into the bytes gofmt gives the whole file; each chunk writes
// only its own result, so order and bytes do not depend on scheduling.
func Generate(p *ir.Provider) ([]emit.File, error) {
	return generate(p, chunkWeight)
}

// goFile is one file of the package and the units it holds.
type goFile struct {
	name   string
	units  []unit
	chunks []*chunk
}

// generate is Generate with chunks of the given weight (0: every file
// rendered and formatted whole, as one jennifer File).
func generate(p *ir.Provider, budget int) ([]emit.File, error) {
	if !token.IsIdentifier(p.Targets.GoPackage) {
		return nil, fmt.Errorf("go: package name %q is not a Go identifier (a keyword?); set targets.go.package", p.Targets.GoPackage)
	}
	tools := toolList(p)
	uses := make([]helperUses, len(p.Decls))
	files := []*goFile{
		{name: "doc.go", units: []unit{{weight: 1, packageDoc: true, render: func(f *jen.File) { renderDoc(f, p) }}}},
		{name: "types.go", units: typeUnits(p, uses)},
		{name: "provider.go", units: providerUnits(p, tools)},
		{name: "client.go", units: clientUnits(p, tools)},
	}
	var jobs []*chunk
	for _, f := range files {
		f.chunks = chunksOf(f.units, budget)
		jobs = append(jobs, f.chunks...)
	}
	// The heaviest chunks start first, so that no big one is left for last.
	slices.SortStableFunc(jobs, func(a, b *chunk) int { return cmp.Compare(b.weight(), a.weight()) })
	par.Each(len(jobs), func(i int) { jobs[i].render(p) })
	// The helpers follow the declarations that use them, which are
	// known once every declaration is mapped.
	if h := helperUnit(uses); h != nil {
		c := &chunk{units: []unit{*h}, laidOut: budget > 0}
		if budget == 0 {
			// A file rendered whole is rendered again with its helpers.
			c = &chunk{first: true, units: append(files[1].units, *h)}
			files[1].chunks = nil
		}
		c.render(p)
		files[1].chunks = append(files[1].chunks, c)
	}
	// The files are joined on the pool too: types.go and provider.go are
	// megabytes for a large Provider.
	out := make([]emit.File, len(files))
	errs := make([]error, len(files))
	par.Each(len(files), func(i int) {
		f := files[i]
		out[i].Path = Dir + "/" + p.Slug + "/" + f.name
		var err error
		if out[i].Data, err = f.data(); err != nil {
			errs[i] = fmt.Errorf("go: %s: %w", f.name, err)
		}
	})
	return out, errors.Join(errs...)
}

// data is the file's bytes: its one chunk's, or its chunks joined. Every
// import of a chunk is one of importNames, which jennifer never aliases,
// so chunks that cannot be joined are an error of the generator.
func (f *goFile) data() ([]byte, error) {
	var errs []error
	for _, c := range f.chunks {
		errs = append(errs, c.err)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if len(f.chunks) == 1 && !f.chunks[0].laidOut {
		return f.chunks[0].out, nil
	}
	data, err := join(f.chunks)
	if err != nil {
		return nil, fmt.Errorf("the formatted chunks cannot be joined: %w", err)
	}
	return data, nil
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

// typeUnits are the units of types.go: one per declaration in the IR's
// naming order, each mapping its node as it renders and recording in
// uses the helpers it needs. The names come from the IR, so no
// declaration's mapping depends on another's.
func typeUnits(p *ir.Provider, uses []helperUses) []unit {
	units := make([]unit, len(p.Decls))
	for i, n := range p.Decls {
		units[i] = unit{weight: 1 + len(n.Props)/2, render: func(f *jen.File) {
			m := &mapper{}
			renderDecl(f, m.declare(n))
			uses[i] = m.uses
		}}
	}
	return units
}

// helperUnit is the unit of the helper types the declarations use, or
// nil when they use none.
func helperUnit(uses []helperUses) *unit {
	var all helperUses
	for _, u := range uses {
		all.nullable = all.nullable || u.nullable
		all.dateTime = all.dateTime || u.dateTime
	}
	if all == (helperUses{}) {
		return nil
	}
	return &unit{weight: 1, render: func(f *jen.File) { renderHelpers(f, all) }}
}

// providerUnits are the units of provider.go: the Handler, the
// constructor and the adapter, the descriptor, the registrations and the
// schema constants of each tool. The schema constants are as-is: their
// doc comment names the tool, and a tool name matches
// ^[a-z][a-z0-9_]{0,63}$ (schema/tool.schema.json, checked by package
// validate before the IR is built), so gofmt leaves the line as it is.
func providerUnits(p *ir.Provider, tools []toolNames) []unit {
	units := []unit{
		{weight: 1 + len(tools), render: func(f *jen.File) { renderHandler(f, p, tools) }},
		{weight: 2, render: func(f *jen.File) { renderNew(f, p) }},
		{weight: 1, render: func(f *jen.File) { renderDescriptor(f, p) }},
		{weight: 1 + 2*len(tools), render: func(f *jen.File) { renderTools(f, p, tools) }},
	}
	for _, t := range tools {
		units = append(units,
			unit{weight: 1, asIs: true, render: func(f *jen.File) { renderSchema(f, t.inSchema, "input", t, t.tool.Input) }},
			unit{weight: 1, asIs: true, render: func(f *jen.File) { renderSchema(f, t.outSchema, "output", t, t.tool.Output) }})
	}
	return units
}

// clientUnits are the units of client.go: the Client and its constructor,
// then one method per tool.
func clientUnits(p *ir.Provider, tools []toolNames) []unit {
	units := []unit{{weight: 2, render: func(f *jen.File) { renderClient(f, p) }}}
	for _, t := range tools {
		units = append(units, unit{weight: 1, render: func(f *jen.File) { renderClientMethod(f, t) }})
	}
	return units
}
