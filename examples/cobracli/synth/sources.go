package synth

import (
	"strings"

	gen "github.com/cetpgen/cetpgen/gen/catalog"
	"github.com/cetpgen/cetpgen/runtime/catalog"
	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/spf13/cobra"
)

// Input returns every source of the n-leaf CLI, as a generator would feed
// them from memory.
func Input(n int) *gen.Input {
	leaves := Leaves(n)
	return &gen.Input{
		Root:        func() *cobra.Command { return Root(n) },
		Registry:    registry(leaves),
		RegistryRef: gen.RegistryFile,
		Exclusions: []gen.Exclusion{{CLIPath: "version", Reason: "CLI lifecycle", Reviewed: true},
			{CLIPath: "schema", Reason: "introspection", Reviewed: true}, {CLIPath: "help", Reason: "Cobra help", Reviewed: true}},
		Metadata:   []gen.MetadataSource{metadata(leaves)},
		Selection:  []gen.SelectionSource{selection(leaves)},
		Bindings:   bindings(leaves),
		Typed:      typed(leaves),
		Interfaces: interfaces(leaves),
	}
}

func registry(leaves []Leaf) *gen.CommandRegistry {
	r := &gen.CommandRegistry{Schema: gen.RegistrySchemaRef, Version: 1}
	byProduct := map[string]int{}
	for _, l := range leaves {
		i, ok := byProduct[l.Product]
		if !ok {
			i = len(r.Products)
			byProduct[l.Product] = i
			r.Products = append(r.Products, gen.RegistryProduct{ID: l.Product})
		}
		r.Products[i].Tools = append(r.Products[i].Tools, gen.CommandSpec{CanonicalPath: l.Canonical(), CLIPath: l.Path()})
	}
	return r
}

func metadata(leaves []Leaf) gen.MetadataSource {
	m := gen.MetadataSource{Version: 1, Ref: "metadata/synth.json", Source: gen.SourceInfo{Name: "synth-metadata", Reviewed: true},
		Tools: map[string]gen.ToolMetadata{}}
	desc := "Identifier of the item to act on; obtain it from the list command first (reviewed)."
	for _, l := range leaves {
		tm := gen.ToolMetadata{InterfaceMode: gen.ModeMCP, Availability: gen.Available, Reviewed: true,
			Parameters: map[string]gen.ParameterOverlay{"id": {Description: &desc}}}
		if l.Verb == "share" {
			tm.Effect, tm.Risk, tm.Confirmation = "write", "high", "user_required"
		}
		m.Tools[l.Canonical()] = tm
	}
	return m
}

func selection(leaves []Leaf) gen.SelectionSource {
	s := gen.SelectionSource{Version: 1, Ref: "selection/synth.json", Source: gen.SourceInfo{Name: "synth-selection", Reviewed: true},
		Products: map[string]gen.ProductSelection{}, Tools: map[string]gen.ToolSelection{}}
	for _, l := range leaves {
		s.Products[l.Product] = gen.ProductSelection{AgentSummary: "Manage the documents and records of " + l.Product,
			UseWhen: []string{"The user works with " + l.Product}, AvoidWhen: []string{"Anything outside " + l.Product}, Reviewed: true}
		s.Tools[l.Canonical()] = gen.ToolSelection{AgentSummary: strings.ToUpper(l.Verb[:1]) + l.Verb[1:] + " a " + l.Group,
			UseWhen:   []string{"The user asks to " + l.Verb + " a " + l.Group + " and the id is known", "A workflow step needs the " + l.Group},
			AvoidWhen: []string{"Bulk changes: use export and import instead"},
			Examples:  []string{"synth " + l.Path() + " --id ID"}, Reviewed: true, ReviewReason: "reviewed against the Cobra help"}
	}
	return s
}

func bindings(leaves []Leaf) *gen.Bindings {
	b := &gen.Bindings{Version: 1, Ref: gen.BindingsFile, Tools: map[string]map[string]string{}}
	for _, l := range leaves {
		b.Tools[l.Canonical()] = map[string]string{"id": l.Group + "Id"}
		if len(flagsOf(l)) > 2 {
			b.Tools[l.Canonical()]["start"] = "startTime"
		}
	}
	return b
}

func typed(leaves []Leaf) *gen.TypedSource {
	t := &gen.TypedSource{Ref: "typed", Tools: map[string]gen.TypedTool{}}
	for _, l := range leaves {
		params := map[string]gen.TypedParameter{}
		if len(flagsOf(l)) > 3 {
			params["start"] = gen.TypedParameter{Format: "date-time"}
			params["end"] = gen.TypedParameter{Format: "date-time", Example: "2026-03-10T15:00:00+08:00"}
		}
		if len(flagsOf(l)) > 9 {
			params["format"] = gen.TypedParameter{Enum: []string{"json", "table"}}
		}
		t.Tools[l.Canonical()] = gen.TypedTool{Parameters: params}
	}
	return t
}

func interfaces(leaves []Leaf) *gen.InterfaceFacts {
	f := &gen.InterfaceFacts{Version: 1, Ref: gen.InterfacesFile, Source: "cetp-pinned-tools", SourceRevision: "tools-1000",
		Tools: map[string]gen.InterfaceTool{}}
	seen := map[string]bool{}
	for _, l := range leaves {
		if !seen[l.Product] {
			seen[l.Product] = true
			f.Services = append(f.Services, l.Product)
		}
		f.Tools[l.Canonical()] = interfaceTool(l)
	}
	return f
}

func interfaceTool(l Leaf) gen.InterfaceTool {
	params := map[string]gen.InterfaceParam{}
	for _, name := range flagsOf(l) {
		params[propertyOf(l, name)] = gen.InterfaceParam{Type: "string", Description: "RPC " + name + " of the " + l.Group, Required: name == "id"}
	}
	effect := map[string]protocol.Effect{"list": protocol.EffectRead, "get": protocol.EffectRead, "search": protocol.EffectRead,
		"export": protocol.EffectRead, "delete": protocol.EffectDelete}[l.Verb]
	if effect == "" {
		effect = protocol.EffectUpdate
	}
	return gen.InterfaceTool{Title: l.Verb + " " + l.Group, Description: "RPC " + l.Verb + " " + l.Group,
		Ref: catalog.InterfaceRef{ProductID: l.Product, RPCName: l.Verb + "_" + l.Group}, Revision: "tools-1000",
		Parameters: params, Annotations: annotations(effect)}
}

func propertyOf(l Leaf, flag string) string {
	switch flag {
	case "id":
		return l.Group + "Id"
	case "start":
		return "startTime"
	case "end":
		return "endTime"
	}
	return strings.ReplaceAll(flag, "-", "_")
}

// annotations are CETP annotations that satisfy cetp-v2 §3.4: delete is
// high risk and always confirmed.
func annotations(effect protocol.Effect) *gen.Annotations {
	if effect == protocol.EffectDelete {
		return &gen.Annotations{Effect: effect, Risk: protocol.RiskHigh, Destructive: true, Confirmation: protocol.ConfirmAlways}
	}
	return &gen.Annotations{Effect: effect, Risk: protocol.RiskLow, Idempotent: effect == protocol.EffectRead, Confirmation: protocol.ConfirmNever}
}
