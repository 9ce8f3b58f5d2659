package catalog

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/cetpgen/cetpgen/gen/internal/par"
	"github.com/cetpgen/cetpgen/runtime/catalog"
	"github.com/spf13/cobra"
)

// Result is one generation: the typed registry, the catalog file and its
// index, and the bound registry they were resolved from.
type Result struct {
	Registry    *catalog.Registry
	Data        []byte // schema_catalog.json
	Index       []byte // schema_catalog.index.json
	SurfaceHash string
	Bound       *BoundRegistry
}

// testHookRegistry, when set by a test, may alter the registry after
// resolution, to show that the gates catch what it does.
var testHookRegistry func(*catalog.Registry)

// Build runs the whole pipeline once: the stability gate on the cobra
// tree, effective registry, binder, resolvers, gates, serialization and
// the delivery gates. Generating twice gives the same bytes (the rule that
// two successive generations are byte stable): the stability gate holds
// Input.Root to building the same tree twice, `--check` compares a
// generation with the committed previous one, and
// TestTwoBuildsByteIdentical builds twice from independent cobra trees.
func Build(in *Input) (*Result, error) {
	if in.Root == nil || in.Registry == nil {
		return nil, fmt.Errorf("catalog input needs a root command and a registry")
	}
	root := in.Root()
	if err := gateStability(in, root); err != nil {
		return nil, err
	}
	eff, err := NewEffectiveRegistry(in.Registry, in.Additions)
	if err != nil {
		return nil, err
	}
	bound, err := Bind(eff, root, in.Exclusions)
	if err != nil {
		return nil, err
	}
	if err := checkSources(in, bound); err != nil {
		return nil, err
	}
	reg, s, err := resolve(in, bound)
	if err != nil {
		return nil, err
	}
	if err := gateRuntimeConfirmation(in, reg); err != nil {
		return nil, err
	}
	if testHookRegistry != nil {
		testHookRegistry(reg)
	}
	return deliver(reg, bound, eff.Hash(), s.pinned)
}

// deliver gates the registry, serializes it and gates the delivery.
func deliver(reg *catalog.Registry, bound *BoundRegistry, surface string, pinned func(*catalog.InterfaceRef) bool) (*Result, error) {
	if err := GateRegistry(reg, bound, pinned); err != nil {
		return nil, err
	}
	data, index, err := catalog.Encode(reg, surface)
	if err != nil {
		return nil, err
	}
	if err := GateDelivery(reg, data, index); err != nil {
		return nil, err
	}
	return &Result{Registry: reg, Data: data, Index: index, SurfaceHash: surface, Bound: bound}, nil
}

// resolve turns the bound registry into the typed SchemaRegistry.
func resolve(in *Input, bound *BoundRegistry) (*catalog.Registry, *sourceSet, error) {
	known := map[string]bool{}
	for _, c := range bound.Commands {
		known[c.Spec.CanonicalPath] = true
	}
	s, err := newSourceSet(in, bound.Root.Name(), known)
	if err != nil {
		return nil, nil, err
	}
	byProduct := map[string][]*BoundCommand{}
	for i := range bound.Commands {
		if bc := &bound.Commands[i]; bc.Spec.Visibility == Public {
			byProduct[bc.Spec.ProductID] = append(byProduct[bc.Spec.ProductID], bc)
		}
	}
	reg := &catalog.Registry{}
	for _, id := range slices.Sorted(maps.Keys(byProduct)) {
		p, err := s.resolveProduct(id, byProduct[id], bound.Root)
		if err != nil {
			return nil, nil, err
		}
		reg.Products = append(reg.Products, p)
	}
	reg.Header = s.header(reg, bound.Effective.Hash())
	return reg, s, nil
}

// productText is the name and description of a product: the Short of the
// command named after it, else of the root.
func productText(id string, root *cobra.Command) string {
	for _, c := range root.Commands() {
		if c.Name() == id {
			return c.Short
		}
	}
	return root.Short
}

func (s *sourceSet) resolveProduct(id string, cmds []*BoundCommand, root *cobra.Command) (catalog.ProductSpec, error) {
	text := productText(id, root)
	p := catalog.ProductSpec{ID: id, Name: text, Description: text, Runtime: true,
		Provenance: map[string]catalog.FieldProvenance{}}
	sort.Slice(cmds, func(i, j int) bool { return cmds[i].Spec.CanonicalPath < cmds[j].Spec.CanonicalPath })
	p.Tools = make([]catalog.ToolSpec, len(cmds))
	errs := make([]error, len(cmds))
	par.Each(len(cmds), func(i int) { p.Tools[i], errs[i] = s.resolveTool(cmds[i], text) })
	if err := firstErr(errs...); err != nil {
		return p, err
	}
	return p, s.productSelection(&p)
}

// productSelection resolves the product prose: reviewed selection >
// defaults.
func (s *sourceSet) productSelection(p *catalog.ProductSpec) error {
	var sum []cand[string]
	var use, avoid []cand[[]string]
	var refs []string
	for _, e := range s.prodSel[p.ID] {
		sum = appendNonEmpty(sum, e.product.AgentSummary, e.ref, "", e.prec)
		use = append(use, cand[[]string]{value: nz(e.product.UseWhen), source: e.ref, prec: e.prec})
		avoid = append(avoid, cand[[]string]{value: nz(e.product.AvoidWhen), source: e.ref, prec: e.prec})
		refs = append(refs, append([]string{e.ref}, e.product.SourceRefs...)...)
		p.Selection.AgentSummarySource, p.Selection.MetadataSource = e.name, "reviewed-selection"
	}
	if p.Selection.MetadataSource == "" {
		p.Selection.AgentSummarySource, p.Selection.MetadataSource = "inference", "inference"
	}
	p.Selection.SourceRefs = dedupe(refs)
	var errs [3]error
	var prov catalog.FieldProvenance
	p.Selection.AgentSummary, prov, errs[0] = pick(AgentRanks, "agent_summary", append(sum, cand[string]{value: p.Description, source: "cobra_help", prec: PrecInferenceOrDefault}))
	p.Provenance["agent_summary"] = prov
	p.Selection.UseWhen, prov, errs[1] = pick(AgentRanks, "use_when", append(use, cand[[]string]{value: []string{}, source: "default", prec: PrecInferenceOrDefault}))
	p.Provenance["use_when"] = prov
	p.Selection.AvoidWhen, prov, errs[2] = pick(AgentRanks, "avoid_when", append(avoid, cand[[]string]{value: []string{}, source: "default", prec: PrecInferenceOrDefault}))
	p.Provenance["avoid_when"] = prov
	return firstErr(errs[:]...)
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// hashJSON is the sha256 of v's JSON.
func hashJSON(v any) string {
	b, _ := json.Marshal(v)
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// header computes the agent and interface metadata summaries.
func (s *sourceSet) header(reg *catalog.Registry, surface string) catalog.Header {
	am := catalog.AgentMetadata{Source: "reviewed-selection", SourceHash: s.agentSourceHash(),
		SurfaceHash: surface, SurfaceProducts: len(reg.Products), SurfaceTools: reg.ToolCount(), Version: 1}
	for _, p := range reg.Products {
		if len(s.prodSel[p.ID]) > 0 {
			am.ProductsWithMetadata++
		}
	}
	for _, t := range reg.Tools() {
		if t.Selection.AgentSummary != "" {
			am.ToolsWithAgentSummary++
		}
		if len(s.meta[t.Identity.CanonicalPath])+len(s.sel[t.Identity.CanonicalPath]) > 0 {
			am.ToolsWithMetadata++
		}
	}
	return catalog.Header{AgentMetadata: am, InterfaceMetadata: s.interfaceMetadata(reg)}
}

func (s *sourceSet) interfaceMetadata(reg *catalog.Registry) catalog.InterfaceMetadata {
	f := s.in.Interfaces
	if f == nil {
		f = &InterfaceFacts{Source: "none"}
	}
	cov := catalog.InterfaceCoverage{MissingServices: []string{}, SourceServices: len(f.Services),
		SourceTools: len(f.Tools) + len(f.Pinned), SurfaceScope: "source_revision", SurfaceTools: reg.ToolCount()}
	used := map[string]bool{}
	for _, t := range reg.Tools() {
		if ifc, ok := f.Tools[t.Identity.CanonicalPath]; ok {
			cov.MatchedTools++
			used[ifc.Ref.ProductID] = true
			if ifc.Ref.RPCName != t.Identity.Name {
				cov.AliasedTools++
			}
		}
	}
	services := slices.Sorted(slices.Values(f.Services))
	for _, svc := range services {
		if !used[svc] {
			cov.MissingServices = append(cov.MissingServices, svc)
		}
	}
	cov.SnapshotServices = len(f.Services) - len(cov.MissingServices)
	cov.UnmatchedTools = cov.SurfaceTools - cov.MatchedTools
	norm := *f
	norm.Services = services
	return catalog.InterfaceMetadata{Coverage: cov, Source: f.Source, SourceHash: hashJSON(norm),
		SourceRevision: f.SourceRevision, ToolCount: cov.MatchedTools, Version: 1}
}

// agentSourceHash hashes the selection and metadata sources in the order
// of their refs, so that the order a generator feeds them in is not part
// of the catalog.
func (s *sourceSet) agentSourceHash() string {
	sel := slices.SortedFunc(slices.Values(s.in.Selection), func(a, b SelectionSource) int { return strings.Compare(a.Ref, b.Ref) })
	meta := slices.SortedFunc(slices.Values(s.in.Metadata), func(a, b MetadataSource) int { return strings.Compare(a.Ref, b.Ref) })
	return hashJSON([]any{sel, meta})
}
