package cli

import (
	"github.com/cetpgen/cetpgen/gen/catalog"
	"github.com/cetpgen/cetpgen/gen/ir"
	"github.com/cetpgen/cetpgen/runtime/cetpcli"
)

// selection is the reviewed prose of the spec: the Provider's description
// for the product, cli.selection for each tool. Examples are written from
// the product on; the catalog's start with the root name.
func selection(p *ir.Provider, app *cetpcli.App) []catalog.SelectionSource {
	s := catalog.SelectionSource{Version: 1, Ref: RefSelection, Source: catalog.SourceInfo{Name: "cetp-spec", Reviewed: true},
		Products: map[string]catalog.ProductSelection{app.Product: {AgentSummary: oneLine(p.Description),
			UseWhen: []string{}, AvoidWhen: []string{}, Reviewed: true}},
		Tools: map[string]catalog.ToolSelection{}}
	for _, t := range p.Tools {
		if t.CLI == nil || !hasSelection(t.CLI) {
			continue
		}
		s.Tools[Canonical(p, t)] = catalog.ToolSelection{AgentSummary: oneLine(t.CLI.Summary),
			UseWhen: nonNil(t.CLI.UseWhen), AvoidWhen: nonNil(t.CLI.AvoidWhen),
			Examples: prefixed(app.Name, t.CLI.Examples), Reviewed: true}
	}
	return []catalog.SelectionSource{s}
}

func hasSelection(c *ir.ToolCLI) bool {
	return c.Summary != "" || len(c.UseWhen)+len(c.AvoidWhen)+len(c.Examples) > 0
}

func nonNil(s []string) []string {
	return append([]string{}, s...)
}

// prefixed puts the root name before every example.
func prefixed(root string, examples []string) []string {
	out := []string{}
	for _, e := range examples {
		out = append(out, root+" "+e)
	}
	return out
}

// typed is what the input schemas say of each flag: description, format,
// enum, first example and whether the property is required.
func typed(p *ir.Provider) *catalog.TypedSource {
	ts := &catalog.TypedSource{Ref: RefTyped, Tools: map[string]catalog.TypedTool{}}
	for _, t := range p.Tools {
		tt := catalog.TypedTool{Parameters: map[string]catalog.TypedParameter{}}
		for _, pr := range params(t) {
			if pr.flag != nil {
				tt.Parameters[pr.flag.Name] = typedParam(pr)
			}
		}
		ts.Tools[Canonical(p, t)] = tt
	}
	return ts
}

func typedParam(pr param) catalog.TypedParameter {
	req := pr.prop.Required
	n := pr.prop.Node
	tp := catalog.TypedParameter{Description: n.Text("description"),
		Format: format(n, pr.flag.List), Enum: pr.flag.Enum, Required: &req}
	if ex, _ := n.Annotation("examples"); ex != nil {
		if list, _ := ex.([]any); len(list) > 0 {
			tp.Example = list[0]
		}
	}
	return tp
}

// interfaces pins each command to its tool at the tool set's revision,
// with the tool's texts, input properties and CETP annotations.
func interfaces(p *ir.Provider) *catalog.InterfaceFacts {
	f := &catalog.InterfaceFacts{Version: 1, Source: "cetp-pinned-tools", SourceRevision: p.Revision,
		Services: []string{p.ID}, Tools: map[string]catalog.InterfaceTool{}, Ref: RefInterfaces}
	for _, t := range p.Tools {
		a := t.Annotations
		it := catalog.InterfaceTool{Title: oneLine(t.Title), Description: oneLine(t.Description), Ref: pinnedRef(p, t),
			Revision: p.Revision, Parameters: map[string]catalog.InterfaceParam{},
			Annotations: &catalog.Annotations{Effect: a.Effect, Risk: a.Risk, Destructive: a.Destructive,
				Idempotent: a.Idempotent, Confirmation: a.Confirmation}}
		for _, pr := range params(t) {
			it.Parameters[pr.prop.Name] = interfaceParam(pr)
		}
		f.Tools[Canonical(p, t)] = it
	}
	return f
}

func interfaceParam(pr param) catalog.InterfaceParam {
	n := pr.prop.Node
	ip := catalog.InterfaceParam{Type: jsonType(n), Description: n.Text("description"), Required: pr.prop.Required}
	if _, enum, ok := scalarKind(n); ok {
		ip.Enum = enum
	}
	return ip
}
