package cli

import (
	"github.com/cetpgen/cetpgen/gen/catalog"
	"github.com/cetpgen/cetpgen/gen/ir"
	rtcatalog "github.com/cetpgen/cetpgen/runtime/catalog"
	"github.com/cetpgen/cetpgen/runtime/cetpcli"
	"github.com/spf13/cobra"
)

// Source refs of the facts taken from the spec, as they appear in the
// catalog's provenance.
const (
	RefRegistry   = "spec:cli.path"
	RefSelection  = "spec:cli.selection"
	RefBindings   = "spec:input_schema#flags"
	RefTyped      = "spec:input_schema"
	RefInterfaces = "spec:tools"
)

// exclusionGroups are the root's own leaves, which are not Agent tools.
var exclusionGroups = []struct {
	id, reason string
	paths      []string
}{
	{"cli-management", "The CLI's own help and schema commands, not Provider tools.", []string{"help", "schema"}},
	{"shell-completion", "Cobra's shell completion scripts, for humans setting up a shell.",
		[]string{"completion bash", "completion fish", "completion powershell", "completion zsh"}},
}

// Input maps the IR of p and its CLI's table to the catalog's sources: the
// registry from the command paths, the exclusions of the root's own
// commands, the selection from cli.selection, the bindings and typed facts
// from the flag rule, and the interface facts pinned to (provider id, tool
// name, revision) with the CETP annotations, from which the safety values
// come.
func Input(p *ir.Provider, app *cetpcli.App) *catalog.Input {
	return &catalog.Input{
		Root:        func() *cobra.Command { return cetpcli.NewRoot(app, cetpcli.Env{}) },
		RegistryRef: RefRegistry,
		Registry:    registry(app),
		Exclusions:  exclusions(),
		Selection:   selection(p, app),
		Bindings:    bindings(app),
		Typed:       typed(p),
		Interfaces:  interfaces(p),
	}
}

// registry is one product with one command per tool.
func registry(app *cetpcli.App) *catalog.CommandRegistry {
	prod := catalog.RegistryProduct{ID: app.Product}
	for _, c := range app.Commands {
		prod.Tools = append(prod.Tools, catalog.CommandSpec{CanonicalPath: c.Canonical, CLIPath: c.Path, Aliases: c.Aliases})
	}
	return &catalog.CommandRegistry{Schema: catalog.RegistrySchemaRef, Version: 1, Products: []catalog.RegistryProduct{prod}}
}

func exclusions() []catalog.Exclusion {
	var out []catalog.Exclusion
	for _, g := range exclusionGroups {
		for _, p := range g.paths {
			out = append(out, catalog.Exclusion{CLIPath: p, Group: g.id, Reason: g.reason, Reviewed: true})
		}
	}
	return out
}

// bindings binds every flag to its property; --json is a reasoned mapping
// exclusion.
func bindings(app *cetpcli.App) *catalog.Bindings {
	b := &catalog.Bindings{Version: 1, Ref: RefBindings, Tools: map[string]map[string]string{}, MappingExclusions: map[string]string{}}
	for _, c := range app.Commands {
		m := map[string]string{}
		for _, f := range c.Flags {
			m[f.Name] = f.Property
		}
		b.Tools[c.Canonical] = m
		b.MappingExclusions[c.Canonical+" --"+cetpcli.JSONFlag] = "Takes the whole args object as JSON; flags given beside it set their properties over it."
	}
	return b
}

// pinnedRef is the interface a tool's command calls.
func pinnedRef(p *ir.Provider, t *ir.Tool) rtcatalog.InterfaceRef {
	return rtcatalog.InterfaceRef{ProductID: p.ID, RPCName: t.Name}
}
