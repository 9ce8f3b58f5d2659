package catalog

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/cetpgen/cetpgen/runtime/catalog"
)

// Cobra's flag-group annotations (cobra/flag_groups.go).
const (
	cobraMutex    = "cobra_annotation_mutually_exclusive"
	cobraTogether = "cobra_annotation_required_if_others_set"
	cobraOneOf    = "cobra_annotation_one_required"
)

// cobraConstraints reads the flag groups cobra enforces on a command,
// from its ToolFlags.
func cobraConstraints(flags []ToolFlag) *catalog.Constraints {
	groups := map[string]map[string]bool{cobraMutex: {}, cobraTogether: {}, cobraOneOf: {}}
	for _, tf := range flags {
		for kind, set := range groups {
			for _, g := range tf.Flag.Annotations[kind] {
				set[g] = true
			}
		}
	}
	cs := &catalog.Constraints{MutuallyExclusive: splitGroups(groups[cobraMutex]),
		RequireTogether: splitGroups(groups[cobraTogether]), RequireOneOf: splitGroups(groups[cobraOneOf])}
	if cs.Empty() {
		return nil
	}
	return cs
}

func splitGroups(set map[string]bool) [][]string {
	var out [][]string
	for _, g := range slices.Sorted(maps.Keys(set)) {
		names := strings.Fields(g)
		sort.Strings(names)
		out = append(out, names)
	}
	return out
}

// shapeCands are the candidates of constraints, positionals and dry run.
type shapeCands struct {
	cons []cand[*catalog.Constraints]
	pos  []cand[[]catalog.Positional]
	dry  []cand[*catalog.DryRun]
}

// shape resolves constraints, positionals and dry run: reviewed metadata >
// typed metadata > cobra.
func (r *toolResolver) shape() {
	var sc shapeCands
	for _, m := range r.s.meta[r.canonical()] {
		if !m.m.Constraints.Empty() {
			sc.cons = append(sc.cons, cand[*catalog.Constraints]{value: m.m.Constraints, source: m.ref, prec: PrecReviewedManual})
		}
		if m.m.Positionals != nil {
			sc.pos = append(sc.pos, cand[[]catalog.Positional]{value: m.m.Positionals, source: m.ref, prec: PrecReviewedManual})
		}
		if m.m.DryRun != nil {
			sc.dry = append(sc.dry, cand[*catalog.DryRun]{value: m.m.DryRun, source: m.ref, prec: PrecReviewedManual})
		}
	}
	r.typedShape(&sc)
	r.t.Constraints = pickOptional(r, "constraints", sc.cons)
	r.t.Positionals = pickOptional(r, "positionals", sc.pos)
	r.t.DryRun = pickOptional(r, "dry_run", sc.dry)
	r.checkConstraintNames()
}

// typedShape adds the typed metadata and cobra flag-group candidates.
func (r *toolResolver) typedShape(sc *shapeCands) {
	typed := r.s.typed[r.canonical()]
	if !typed.Constraints.Empty() {
		sc.cons = append(sc.cons, cand[*catalog.Constraints]{value: typed.Constraints, source: "typed_parameter_metadata", ref: r.s.typedRef(), prec: PrecTypedMetadata})
	}
	if typed.Positionals != nil {
		sc.pos = append(sc.pos, cand[[]catalog.Positional]{value: typed.Positionals, source: "typed_parameter_metadata", ref: r.s.typedRef(), prec: PrecTypedMetadata})
	}
	if c := cobraConstraints(r.bc.Flags); c != nil {
		sc.cons = append(sc.cons, cand[*catalog.Constraints]{value: c, source: "cobra_flag_groups", prec: PrecCobraContract})
	}
}

// pickOptional resolves a field that exists only when a source sets it.
func pickOptional[T any](r *toolResolver, field string, cs []cand[T]) T {
	var zero T
	if len(cs) == 0 {
		return zero
	}
	v, p, err := pick(ParameterRanks, field, cs)
	r.prov(field, p, err)
	return v
}

// checkConstraintNames fails when a constraint names an unknown flag or
// positional.
func (r *toolResolver) checkConstraintNames() {
	if r.t.Constraints.Empty() {
		return
	}
	known := map[string]bool{}
	for _, p := range r.t.Parameters {
		known[p.Name] = true
	}
	for _, p := range r.t.Positionals {
		known[p.Name] = true
	}
	c := r.t.Constraints
	for _, g := range append(append(append([][]string{}, c.MutuallyExclusive...), c.RequireOneOf...), c.RequireTogether...) {
		for _, n := range g {
			if !known[n] {
				r.errs = append(r.errs, fmt.Errorf("constraint names %q, which is neither a flag nor a positional", n))
			}
		}
	}
}
