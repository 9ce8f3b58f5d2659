package catalog

import (
	"strings"

	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// Safety values.
const (
	EffectRead        = "read"
	EffectWrite       = "write"
	EffectDestructive = "destructive"
)

var readVerbs = map[string]bool{"get": true, "list": true, "search": true, "show": true, "query": true,
	"describe": true, "read": true, "view": true, "status": true, "validate": true, "check": true,
	"diff": true, "inspect": true, "help": true, "version": true, "print": true, "find": true}

var destructiveVerbs = map[string]bool{"delete": true, "remove": true, "rm": true, "purge": true,
	"destroy": true, "drop": true, "revoke": true}

// verbEffect infers an effect from the command's own name.
func verbEffect(name string) string {
	switch {
	case readVerbs[name]:
		return EffectRead
	case destructiveVerbs[name]:
		return EffectDestructive
	}
	return EffectWrite
}

// catalogRisk maps the CETP risks to the catalog's.
var catalogRisk = map[protocol.Risk]string{protocol.RiskLow: "low", protocol.RiskModerate: "medium", protocol.RiskHigh: "high"}

// catalogConfirmation maps the CETP confirmation policies to the
// catalog's: provider_policy may ask per call, so the conservative reading
// is that the user may have to confirm.
var catalogConfirmation = map[protocol.Confirmation]string{protocol.ConfirmNever: "not_required",
	protocol.ConfirmProviderPolicy: "user_required", protocol.ConfirmAlways: "user_required"}

// annotationSafety maps CETP annotations to catalog safety values.
func annotationSafety(a *Annotations) (effect, risk, confirmation, idempotency string) {
	switch {
	case a.Destructive || a.Effect == protocol.EffectDelete || a.Effect == protocol.EffectTransaction:
		effect = EffectDestructive
	case a.Effect == protocol.EffectRead:
		effect = EffectRead
	default:
		effect = EffectWrite
	}
	risk = catalogRisk[a.Risk]
	confirmation = catalogConfirmation[a.Confirmation]
	idempotency = "non_idempotent"
	if a.Idempotent {
		idempotency = "idempotent"
	}
	return effect, risk, confirmation, idempotency
}

// safety resolves effect, risk, confirmation and idempotency: reviewed
// metadata > CETP annotations (imported) > inference and defaults.
func (r *toolResolver) safety() {
	var ae, ar, ac, ai []cand[string]
	if a := r.s.ifc[r.canonical()].Annotations; a != nil {
		e, k, c, i := annotationSafety(a)
		imp := func(v string) []cand[string] {
			return []cand[string]{{value: v, source: "cetp-annotations", ref: r.s.ifcRef(), prec: PrecImported}}
		}
		ae, ar, ac, ai = imp(e), imp(k), imp(c), imp(i)
	}
	s := &r.t.Safety
	s.Effect = r.pickAgent("effect", append(append(r.metaCands(func(m *ToolMetadata) string { return m.Effect }), ae...),
		cand[string]{value: verbEffect(r.t.Identity.CLIName), source: "command-verb", prec: PrecInferenceOrDefault}))
	s.EffectSource = effectSource(r.t.Provenance["effect"].Precedence)
	s.Risk = r.pickAgent("risk", append(append(r.metaCands(func(m *ToolMetadata) string { return m.Risk }), ar...),
		cand[string]{value: defaultRisk(s.Effect), source: "effect-default", prec: PrecInferenceOrDefault}))
	s.Confirmation = r.pickAgent("confirmation", append(append(r.metaCands(func(m *ToolMetadata) string { return m.Confirmation }), ac...),
		cand[string]{value: defaultConfirmation(s.Effect, s.Risk), source: "risk-default", prec: PrecInferenceOrDefault}))
	s.Idempotency = r.pickAgent("idempotency", append(append(r.metaCands(func(m *ToolMetadata) string { return m.Idempotency }), ai...),
		cand[string]{value: defaultIdempotency(s.Effect), source: "effect-default", prec: PrecInferenceOrDefault}))
}

func effectSource(prec string) string {
	switch prec {
	case PrecInferenceOrDefault:
		return "command-verb"
	case PrecImported:
		return "cetp-annotation"
	}
	return "agent-hint"
}

func defaultRisk(effect string) string {
	return map[string]string{EffectRead: "low", EffectWrite: "medium", EffectDestructive: "high"}[effect]
}

func defaultConfirmation(effect, risk string) string {
	if effect == EffectDestructive || risk == "high" {
		return "user_required"
	}
	return "not_required"
}

func defaultIdempotency(effect string) string {
	if effect == EffectRead {
		return "idempotent"
	}
	return "unknown"
}

// selection resolves the Agent prose: reviewed selection > inference.
func (r *toolResolver) selection() {
	entries := r.s.sel[r.canonical()]
	var sum, srcName []cand[string]
	var use, avoid, ex []cand[[]string]
	for _, e := range entries {
		reason := e.tool.ReviewReason
		if e.tool.AgentSummary != "" {
			sum = append(sum, cand[string]{value: e.tool.AgentSummary, source: e.ref, prec: e.prec, reason: reason})
		}
		srcName = append(srcName, cand[string]{value: e.name, source: e.ref, prec: e.prec})
		use = append(use, cand[[]string]{value: nz(e.tool.UseWhen), source: e.ref, prec: e.prec, reason: reason})
		avoid = append(avoid, cand[[]string]{value: nz(e.tool.AvoidWhen), source: e.ref, prec: e.prec, reason: reason})
		ex = append(ex, cand[[]string]{value: nz(e.tool.Examples), source: e.ref, prec: e.prec, reason: reason})
	}
	sel := &r.t.Selection
	sel.AgentSummary = r.pickAgent("agent_summary", append(sum, cand[string]{value: r.t.Title, source: "title-inference", prec: PrecInferenceOrDefault}))
	sel.UseWhen = r.pickList("use_when", use)
	sel.AvoidWhen = r.pickList("avoid_when", avoid)
	sel.Examples = r.pickList("examples", ex)
	sel.Reviewed = r.pickReviewed(entries)
	sel.AgentSummarySource, _, _ = pick(AgentRanks, "agent_summary_source", append(srcName, cand[string]{value: "inference", prec: PrecInferenceOrDefault}))
	sel.MetadataSource = "inference"
	if len(entries) > 0 {
		sel.MetadataSource = "reviewed-selection"
	}
	sel.SourceRefs = r.sourceRefs()
}

func (r *toolResolver) pickList(field string, cs []cand[[]string]) []string {
	v, p, err := pick(AgentRanks, field, append(cs, cand[[]string]{value: []string{}, source: "default", prec: PrecInferenceOrDefault}))
	r.prov(field, p, err)
	return v
}

func (r *toolResolver) pickReviewed(entries []selEntry) bool {
	var cs []cand[bool]
	for _, m := range r.s.meta[r.canonical()] {
		cs = append(cs, cand[bool]{value: m.m.Reviewed, source: m.ref, prec: m.prec, reason: metaReason(m)})
	}
	for _, e := range entries {
		cs = append(cs, cand[bool]{value: e.tool.Reviewed, source: e.ref, prec: e.prec})
	}
	v, p, err := pick(AgentRanks, "reviewed", append(cs, cand[bool]{value: false, source: "default", prec: PrecInferenceOrDefault}))
	r.prov("reviewed", p, err)
	return v
}

// sourceRefs lists every source that contributed to the tool.
func (r *toolResolver) sourceRefs() []string {
	refs := []string{"cobra-help:" + strings.TrimSpace(r.s.root+" "+r.bc.Spec.CLIPath) + " --help"}
	if r.s.in.RegistryRef != "" {
		refs = append(refs, r.s.in.RegistryRef)
	}
	for _, m := range r.s.meta[r.canonical()] {
		refs = append(refs, m.ref)
	}
	for _, e := range r.s.sel[r.canonical()] {
		refs = append(refs, e.ref)
	}
	if _, ok := r.s.ifc[r.canonical()]; ok {
		refs = append(refs, r.s.ifcRef()+"#tools."+r.canonical())
	}
	return dedupe(refs)
}

func dedupe(in []string) []string {
	seen, out := map[string]bool{}, []string{}
	for _, s := range in {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// nz returns s, or an empty non-nil slice.
func nz(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
