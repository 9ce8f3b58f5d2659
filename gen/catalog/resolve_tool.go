package catalog

import (
	"fmt"
	"sort"
	"strings"

	"github.com/cetpgen/cetpgen/runtime/catalog"
)

// toolResolver resolves one bound command into its ToolSpec.
type toolResolver struct {
	s    *sourceSet
	bc   *BoundCommand
	t    catalog.ToolSpec
	errs []error
}

// prov records a field's provenance, keeping the first error.
func (r *toolResolver) prov(field string, p catalog.FieldProvenance, err error) {
	if err != nil {
		r.errs = append(r.errs, err)
		return
	}
	r.t.Provenance[field] = p
}

// toolFieldsHint is about the number of provenance entries of a tool (16
// for a generated command), so that its map is sized once.
const toolFieldsHint = 20

func (s *sourceSet) resolveTool(bc *BoundCommand, display string) (catalog.ToolSpec, error) {
	r := &toolResolver{s: s, bc: bc, t: catalog.ToolSpec{Display: display, Provenance: make(map[string]catalog.FieldProvenance, toolFieldsHint)}}
	r.identity()
	r.text()
	r.safety()
	r.iface()
	r.selection()
	r.params()
	r.shape()
	if len(r.errs) > 0 {
		return r.t, fmt.Errorf("%s: %w", bc.Spec.CanonicalPath, r.errs[0])
	}
	return r.t, nil
}

func (r *toolResolver) canonical() string { return r.bc.Spec.CanonicalPath }

// identity copies the bound registry identity; it has one source only.
func (r *toolResolver) identity() {
	c := r.bc.Spec
	toks := strings.Fields(c.CLIPath)
	aliases := append([]string(nil), c.Aliases...)
	sort.Strings(aliases)
	r.t.Identity = catalog.IdentitySpec{ProductID: c.ProductID, SourceProductID: c.SourceProductID,
		Name: strings.TrimPrefix(c.CanonicalPath, c.ProductID+"."), CLIName: toks[len(toks)-1],
		CanonicalPath: c.CanonicalPath, CLIPath: c.CLIPath, PrimaryCLIPath: c.CLIPath,
		Group: group(toks), Aliases: aliases, Source: c.Source}
	v, p, err := pick(map[string]int{PrecCommandRegistry: 1}, "canonical_path",
		[]cand[string]{{value: c.CanonicalPath, source: c.Source, ref: c.CLIPath, prec: PrecCommandRegistry, reason: c.ReviewReason}})
	p.Resolution = "registry_identity"
	_ = v
	r.prov("canonical_path", p, err)
}

// group is the path between product and leaf, joined with dots.
func group(toks []string) string {
	if len(toks) < 3 {
		return ""
	}
	return strings.Join(toks[1:len(toks)-1], ".")
}

// text resolves title and description: tool hint > Cobra help > interface
// metadata > inference.
func (r *toolResolver) text() {
	cmd, ifc := r.bc.Command, r.s.ifc[r.canonical()]
	var title, desc []cand[string]
	for _, m := range r.s.meta[r.canonical()] {
		title = appendNonEmpty(title, m.m.Title, "tool_schema_hint", m.ref, PrecToolSchemaHint)
		desc = appendNonEmpty(desc, m.m.Description, "tool_schema_hint", m.ref, PrecToolSchemaHint)
	}
	title = appendNonEmpty(title, cmd.Short, "cobra_help", "", PrecCobraHelp)
	desc = appendNonEmpty(desc, firstNonEmpty(cmd.Long, cmd.Short), "cobra_help", "", PrecCobraHelp)
	title = appendNonEmpty(title, ifc.Title, "mcp_metadata", r.s.ifcRef(), PrecMCPMetadata)
	desc = appendNonEmpty(desc, ifc.Description, "mcp_metadata", r.s.ifcRef(), PrecMCPMetadata)
	title = append(title, cand[string]{value: r.t.Identity.CLIName, source: "cli_name_inference", prec: PrecInference})
	desc = append(desc, cand[string]{value: "", source: "default", prec: PrecDefault})
	var pt, pd catalog.FieldProvenance
	var err error
	r.t.Title, pt, err = pick(ParameterRanks, "title", title)
	r.prov("title", pt, err)
	r.t.Description, pd, err = pick(ParameterRanks, "description", desc)
	r.prov("description", pd, err)
}

func (s *sourceSet) ifcRef() string {
	if s.in.Interfaces == nil {
		return ""
	}
	return s.in.Interfaces.Ref
}

func appendNonEmpty(cs []cand[string], v, source, ref, prec string) []cand[string] {
	if strings.TrimSpace(v) == "" {
		return cs
	}
	return append(cs, cand[string]{value: v, source: source, ref: ref, prec: prec})
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}

// metaCands collects one metadata string field from every metadata source.
func (r *toolResolver) metaCands(get func(*ToolMetadata) string) []cand[string] {
	var cs []cand[string]
	for _, m := range r.s.meta[r.canonical()] {
		if v := get(&m.m); v != "" {
			cs = append(cs, cand[string]{value: v, source: m.ref, prec: m.prec, reason: metaReason(m)})
		}
	}
	return cs
}

func metaReason(m metaEntry) string {
	if m.m.ReviewReason != "" {
		return m.m.ReviewReason
	}
	if m.prec == PrecReviewedExplicit {
		return m.name + " marks this tool as reviewed"
	}
	return ""
}

// pickAgent resolves one agent-rank string field and records it.
func (r *toolResolver) pickAgent(field string, cs []cand[string]) string {
	v, p, err := pick(AgentRanks, field, cs)
	r.prov(field, p, err)
	return v
}
