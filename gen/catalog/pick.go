package catalog

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/cetpgen/cetpgen/runtime/catalog"
)

// Precedence labels, as in the dws catalog.
const (
	PrecReviewedManual   = "reviewed_manual"
	PrecVersionedBinding = "versioned_binding"
	PrecMappingExclusion = "reviewed_mapping_exclusion"
	PrecCommandConstr    = "command_constraint"
	PrecTypedMetadata    = "typed_metadata"
	PrecNativeAnnotation = "native_annotation"
	PrecCobraContract    = "cobra_contract"
	PrecToolSchemaHint   = "tool_schema_hint"
	PrecCobraHelp        = "cobra_help"
	PrecMCPMetadata      = "mcp_metadata"
	PrecFallback         = "fallback"
	PrecInference        = "inference"
	PrecDerived          = "derived_resolution"
	PrecDefault          = "default"

	PrecReviewedExplicit   = "reviewed_explicit"
	PrecExplicit           = "explicit"
	PrecImported           = "imported"
	PrecUnreviewedExplicit = "unreviewed_explicit"
	PrecSkill              = "skill"
	PrecMCPFallback        = "mcp_fallback"
	PrecInferenceOrDefault = "inference_or_default"

	PrecCommandRegistry = "command_registry"
)

// ParameterRanks orders the sources of parameter and text fields
// (dws runtime_schema.go); the order never depends on values.
var ParameterRanks = map[string]int{
	PrecReviewedManual: 700, PrecVersionedBinding: 650, PrecMappingExclusion: 650,
	PrecCommandConstr: 640, PrecTypedMetadata: 630, PrecNativeAnnotation: 620,
	PrecCobraContract: 610, PrecToolSchemaHint: 500, PrecCobraHelp: 450,
	PrecMCPMetadata: 400, PrecFallback: 150, PrecInference: 100, PrecDerived: 50, PrecDefault: 0,
}

// AgentRanks orders the sources of safety, selection and interface fields
// (dws agentmetadata).
var AgentRanks = map[string]int{
	PrecReviewedManual: 500, PrecReviewedExplicit: 400, PrecExplicit: 300, PrecImported: 200,
	PrecUnreviewedExplicit: 150, PrecSkill: 100, PrecMCPFallback: 10, PrecInferenceOrDefault: 0,
}

// cand is one source's value for a field.
type cand[T any] struct {
	value  T
	source string
	ref    string
	prec   string
	reason string
}

// pick chooses the candidate of highest rank; candidates of the winning
// rank must agree, whatever their values.
func pick[T any](ranks map[string]int, field string, cands []cand[T]) (T, catalog.FieldProvenance, error) {
	var zero T
	if len(cands) == 0 {
		return zero, catalog.FieldProvenance{}, fmt.Errorf("%s: no candidate", field)
	}
	slices.SortStableFunc(cands, func(a, b cand[T]) int { return candCompare(ranks, &a, &b) })
	raws := make([]json.RawMessage, len(cands))
	for i, c := range cands {
		if _, ok := ranks[c.prec]; !ok {
			return zero, catalog.FieldProvenance{}, fmt.Errorf("%s: unknown precedence %q", field, c.prec)
		}
		raws[i] = mustJSON(c.value)
	}
	if err := sameRankAgree(ranks, field, cands, raws); err != nil {
		return zero, catalog.FieldProvenance{}, err
	}
	return cands[0].value, provenance(cands, raws, "highest_precedence"), nil
}

func sameRankAgree[T any](ranks map[string]int, field string, cands []cand[T], raws []json.RawMessage) error {
	for i := 1; i < len(cands) && ranks[cands[i].prec] == ranks[cands[0].prec]; i++ {
		if string(raws[i]) != string(raws[0]) {
			return fmt.Errorf("%s: %s says %s and %s says %s at the same precedence %s",
				field, cands[0].source, raws[0], cands[i].source, raws[i], cands[i].prec)
		}
	}
	return nil
}

func provenance[T any](cands []cand[T], raws []json.RawMessage, resolution string) catalog.FieldProvenance {
	w := cands[0]
	p := catalog.FieldProvenance{Precedence: w.prec, Resolution: resolution, ReviewReason: w.reason,
		Source: w.source, SourceRef: w.ref, Value: raws[0]}
	p.Candidates = make([]catalog.Candidate, 0, len(cands))
	for i, c := range cands {
		p.Candidates = append(p.Candidates, catalog.Candidate{Precedence: c.prec, ReviewReason: c.reason,
			Selected: i == 0, Source: c.source, SourceRef: c.ref, Value: raws[i]})
	}
	return p
}

// candCompare orders candidates by rank, then by source and ref, so that
// the order sources are fed in never shows in the provenance.
func candCompare[T any](ranks map[string]int, a, b *cand[T]) int {
	if ra, rb := ranks[a.prec], ranks[b.prec]; ra != rb {
		return cmp.Compare(rb, ra)
	}
	if c := strings.Compare(a.source, b.source); c != 0 {
		return c
	}
	return strings.Compare(a.ref, b.ref)
}

// mustJSON encodes v; every candidate value is plain data. Strings, bools
// and string lists, most candidates, skip reflection.
func mustJSON(v any) json.RawMessage {
	switch x := v.(type) {
	case string:
		return catalog.AppendJSONString(make([]byte, 0, len(x)+2), x)
	case bool:
		return strconv.AppendBool(nil, x)
	case []string:
		if x != nil {
			return appendStringList(x)
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("catalog: candidate value %#v: %v", v, err))
	}
	return b
}

// appendStringList encodes a non-nil list of strings.
func appendStringList(list []string) []byte {
	n := 2
	for _, s := range list {
		n += len(s) + 3
	}
	b := append(make([]byte, 0, n), '[')
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = catalog.AppendJSONString(b, s)
	}
	return append(b, ']')
}
