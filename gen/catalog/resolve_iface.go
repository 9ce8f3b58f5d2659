package catalog

import (
	"fmt"

	"github.com/cetpgen/cetpgen/runtime/catalog"
)

// Interface disposition values: Mode and Availability are orthogonal.
const (
	ModeMCP         = "mcp"
	ModeLocal       = "local"
	ModeComposite   = "composite"
	Available       = "available"
	Unavailable     = "unavailable"
	matrixSource    = "interface_disposition_matrix"
	pinnedSource    = "pinned-interface"
	pinnedMetaValue = "pinned-interface-metadata"
)

// iface resolves the interface disposition: reviewed metadata > pinned
// interface facts (imported) > the local default; then the conflict matrix
// decides whether a ref may stay.
func (r *toolResolver) iface() {
	ifc, pinned := r.s.ifc[r.canonical()]
	modeC := r.metaCands(func(m *ToolMetadata) string { return m.InterfaceMode })
	if pinned {
		modeC = append(modeC, cand[string]{value: ModeMCP, source: pinnedSource, ref: r.s.ifcRef(), prec: PrecImported})
	}
	in := &r.t.Interface
	in.Mode = r.pickAgent("interface_mode", append(modeC, cand[string]{value: ModeLocal, source: "no-pinned-interface", prec: PrecInferenceOrDefault}))
	in.Availability = r.pickAgent("availability", append(r.metaCands(func(m *ToolMetadata) string { return m.Availability }),
		cand[string]{value: Available, source: "default", prec: PrecInferenceOrDefault}))
	if rc := r.metaCands(func(m *ToolMetadata) string { return m.InterfaceReason }); len(rc) > 0 {
		in.Reason = r.pickAgent("interface_reason", rc)
	}
	refC := r.refCands(ifc, pinned)
	ref, p, err := r.resolveRef(refC)
	in.Ref = ref
	r.prov("interface_ref", p, err)
	if pinned {
		r.t.MetadataSource = pinnedMetaValue
		_, p, err := pick(ParameterRanks, "metadata_source", []cand[string]{{value: pinnedMetaValue, source: "metadata_source_resolution", prec: PrecDerived}})
		r.prov("metadata_source", p, err)
	}
}

func (r *toolResolver) refCands(ifc InterfaceTool, pinned bool) []cand[*catalog.InterfaceRef] {
	var cs []cand[*catalog.InterfaceRef]
	for _, m := range r.s.meta[r.canonical()] {
		if m.m.InterfaceRef != nil {
			cs = append(cs, cand[*catalog.InterfaceRef]{value: m.m.InterfaceRef, source: m.ref, prec: m.prec, reason: metaReason(m)})
		}
	}
	if pinned {
		ref := ifc.Ref
		cs = append(cs, cand[*catalog.InterfaceRef]{value: &ref, source: pinnedSource, ref: r.s.ifcRef(), prec: PrecImported})
	}
	return cs
}

// resolveRef applies the matrix: only mcp + available may carry a ref. A
// ref of lower precedence than the disposition that forbids it is
// overridden (and kept as an overridden candidate); a ref of the same or
// higher precedence is a conflict.
func (r *toolResolver) resolveRef(cs []cand[*catalog.InterfaceRef]) (*catalog.InterfaceRef, catalog.FieldProvenance, error) {
	in := &r.t.Interface
	none := cand[*catalog.InterfaceRef]{value: nil, source: "default", prec: PrecInferenceOrDefault}
	if in.Mode == ModeMCP && in.Availability == Available {
		return pick(AgentRanks, "interface_ref", append(cs, none))
	}
	gov := r.t.Provenance["interface_mode"]
	if in.Availability == Unavailable && AgentRanks[r.t.Provenance["availability"].Precedence] > AgentRanks[gov.Precedence] {
		gov = r.t.Provenance["availability"]
	}
	for _, c := range cs {
		if AgentRanks[c.prec] >= AgentRanks[gov.Precedence] {
			return nil, catalog.FieldProvenance{}, fmt.Errorf("interface_ref %s from %s conflicts with %s/%s from %s", mustJSON(c.value), c.source, in.Mode, in.Availability, gov.Source)
		}
	}
	reason := fmt.Sprintf("final interface disposition %s/%s forbids a direct interface_ref", in.Mode, in.Availability)
	w := cand[*catalog.InterfaceRef]{value: nil, source: matrixSource, prec: gov.Precedence, reason: reason}
	_, p, err := pick(AgentRanks, "interface_ref", []cand[*catalog.InterfaceRef]{w})
	p.Resolution = matrixSource
	for _, c := range cs {
		p.OverriddenCandidates = append(p.OverriddenCandidates, catalog.Candidate{Precedence: c.prec,
			ReviewReason: c.reason, Source: c.source, SourceRef: c.ref, Value: mustJSON(c.value)})
	}
	return nil, p, err
}
