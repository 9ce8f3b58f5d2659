package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/cetpgen/cetpgen/gen/internal/par"
	"github.com/cetpgen/cetpgen/runtime/catalog"
)

// Closed value sets of the catalog.
var (
	effects       = []string{EffectRead, EffectWrite, EffectDestructive}
	risks         = []string{"low", "medium", "high"}
	confirmations = []string{"not_required", "user_required"}
	idempotencies = []string{"idempotent", "non_idempotent", "unknown"}
	modes         = []string{ModeMCP, ModeLocal, ModeComposite}
	availability  = []string{Available, Unavailable}
)

// GateRegistry checks the typed registry before serialization: exact
// canonical set against the bound registry, identity, closed values, the
// interface matrix with pinned refs, examples, and provenance winners.
func GateRegistry(reg *catalog.Registry, bound *BoundRegistry, pinned func(*catalog.InterfaceRef) bool) error {
	if err := gateCanonicalSet(reg, bound); err != nil {
		return err
	}
	tools := reg.Tools()
	errs := make([]error, len(tools))
	par.Each(len(tools), func(i int) { errs[i] = gateTool(tools[i], bound, pinned) })
	for i, err := range errs {
		if err != nil {
			return fmt.Errorf("gate: %s: %w", tools[i].Identity.CanonicalPath, err)
		}
	}
	for i := range reg.Products {
		if err := gateProductProvenance(&reg.Products[i]); err != nil {
			return fmt.Errorf("gate: product %s: %w", reg.Products[i].ID, err)
		}
	}
	return nil
}

// gateTool runs the gates of one tool; it only reads, so the tools are
// gated in parallel, and the first failing tool in registry order is the
// one reported.
func gateTool(t *catalog.ToolSpec, bound *BoundRegistry, pinned func(*catalog.InterfaceRef) bool) error {
	return firstErr(gateIdentity(t, bound), gateValues(t), GateInterface(t, pinned),
		gateExamples(t, bound.Root.Name()), GateProvenance(t))
}

// gateCanonicalSet compares the public effective canonicals with the
// registry's, exactly.
func gateCanonicalSet(reg *catalog.Registry, bound *BoundRegistry) error {
	var want, got []string
	for _, c := range bound.Commands {
		if c.Spec.Visibility == Public {
			want = append(want, c.Spec.CanonicalPath)
		}
	}
	for _, t := range reg.Tools() {
		got = append(got, t.Identity.CanonicalPath)
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(want, got) {
		return fmt.Errorf("gate: the SchemaRegistry canonical set differs from the effective registry's public set")
	}
	return nil
}

func gateIdentity(t *catalog.ToolSpec, bound *BoundRegistry) error {
	bc, ok := bound.ByCanonical[t.Identity.CanonicalPath]
	if !ok {
		return fmt.Errorf("phantom tool: not in the bound registry")
	}
	id := t.Identity
	aliases := append([]string(nil), bc.Spec.Aliases...)
	slices.Sort(aliases)
	if id.CLIPath != bc.Spec.CLIPath || id.PrimaryCLIPath != bc.Spec.CLIPath || id.IsAlias ||
		!slices.Equal(nilIfEmpty(id.Aliases), nilIfEmpty(aliases)) || id.ProductID != bc.Spec.ProductID {
		return fmt.Errorf("identity differs from the bound registry entry")
	}
	return nil
}

func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

func gateValues(t *catalog.ToolSpec) error {
	checks := []struct {
		name, v string
		set     []string
	}{{"effect", t.Safety.Effect, effects}, {"risk", t.Safety.Risk, risks},
		{"confirmation", t.Safety.Confirmation, confirmations}, {"idempotency", t.Safety.Idempotency, idempotencies},
		{"interface_mode", t.Interface.Mode, modes}, {"availability", t.Interface.Availability, availability}}
	for _, c := range checks {
		if !slices.Contains(c.set, c.v) {
			return fmt.Errorf("%s %q is not one of %v", c.name, c.v, c.set)
		}
	}
	return nil
}

// GateInterface checks the interface disposition matrix: mcp + available
// needs a pinned ref; local never has a ref; composite has no ref and a
// reason; unavailable has no ref and a reason.
func GateInterface(t *catalog.ToolSpec, pinned func(*catalog.InterfaceRef) bool) error {
	in := t.Interface
	switch {
	case in.Availability == Unavailable && in.Ref != nil:
		return fmt.Errorf("an unavailable command carries interface_ref %s", mustJSON(in.Ref))
	case in.Availability == Unavailable && in.Reason == "":
		return fmt.Errorf("an unavailable command needs interface_reason")
	case in.Availability == Unavailable:
		return nil
	case in.Mode == ModeMCP && (in.Ref == nil || !pinned(in.Ref)):
		return fmt.Errorf("mcp interface_ref %s is not in the pinned interface registry", mustJSON(in.Ref))
	case in.Mode == ModeLocal && in.Ref != nil:
		return fmt.Errorf("a local command carries interface_ref %s", mustJSON(in.Ref))
	case in.Mode == ModeComposite && (in.Ref != nil || in.Reason == ""):
		return fmt.Errorf("a composite command needs a reviewed reason and no single interface_ref")
	}
	return nil
}

// gateExamples checks that examples run the tool itself and never
// pre-confirm.
func gateExamples(t *catalog.ToolSpec, root string) error {
	prefix := root + " " + t.Identity.PrimaryCLIPath
	for _, ex := range t.Selection.Examples {
		if ex != prefix && !strings.HasPrefix(ex, prefix+" ") {
			return fmt.Errorf("example %q does not start with %q", ex, prefix)
		}
		if strings.Contains(ex, "--yes") {
			return fmt.Errorf("example %q pre-confirms with --yes", ex)
		}
	}
	return nil
}

// toolFields returns the delivered value of every tool field that carries
// provenance; optional ones only when set.
func toolFields(t *catalog.ToolSpec) map[string]any {
	m := map[string]any{
		"canonical_path": t.Identity.CanonicalPath, "title": t.Title, "description": t.Description,
		"effect": t.Safety.Effect, "risk": t.Safety.Risk, "confirmation": t.Safety.Confirmation,
		"idempotency": t.Safety.Idempotency, "interface_mode": t.Interface.Mode,
		"availability": t.Interface.Availability, "interface_ref": t.Interface.Ref,
		"agent_summary": t.Selection.AgentSummary, "use_when": nz(t.Selection.UseWhen),
		"avoid_when": nz(t.Selection.AvoidWhen), "examples": nz(t.Selection.Examples),
		"reviewed": t.Selection.Reviewed,
	}
	optional := map[string]any{"interface_reason": t.Interface.Reason, "metadata_source": t.MetadataSource}
	for k, v := range optional {
		if v != "" {
			m[k] = v
		}
	}
	if !t.Constraints.Empty() {
		m["constraints"] = t.Constraints
	}
	if t.Positionals != nil {
		m["positionals"] = t.Positionals
	}
	if t.DryRun != nil {
		m["dry_run"] = t.DryRun
	}
	return m
}

// paramFields returns the delivered value of every parameter field that
// carries provenance.
func paramFields(p *catalog.ParameterSpec) map[string]any {
	m := map[string]any{"type": p.Type, "description": p.Description, "property": p.Property,
		"required": p.Required, "required_when": p.RequiredWhen}
	opt := map[string]bool{"cli_required": p.CLIRequired, "default": p.Default != "", "format": p.Format != "",
		"enum": len(p.Enum) > 0, "example": len(p.Example) > 0, "interface_type": p.InterfaceType != "",
		"interface_description": p.InterfaceDescription != ""}
	vals := map[string]any{"cli_required": p.CLIRequired, "default": p.Default, "format": p.Format,
		"enum": p.Enum, "example": p.Example, "interface_type": p.InterfaceType,
		"interface_description": p.InterfaceDescription}
	for k, set := range opt {
		if set {
			m[k] = vals[k]
		}
	}
	return m
}

// GateProvenance checks that every delivered field of t and of its
// parameters has exactly one provenance entry whose winner value equals the
// delivered value, with exactly one selected candidate equal to it.
func GateProvenance(t *catalog.ToolSpec) error {
	if err := gateFields(toolFields(t), t.Provenance); err != nil {
		return err
	}
	for i := range t.Parameters {
		p := &t.Parameters[i]
		if err := gateFields(paramFields(p), p.Provenance); err != nil {
			return fmt.Errorf("parameter %s: %w", p.Name, err)
		}
	}
	return nil
}

func gateProductProvenance(p *catalog.ProductSpec) error {
	return gateFields(map[string]any{"agent_summary": p.Selection.AgentSummary,
		"use_when": nz(p.Selection.UseWhen), "avoid_when": nz(p.Selection.AvoidWhen)}, p.Provenance)
}

func gateFields(fields map[string]any, prov map[string]catalog.FieldProvenance) error {
	if len(fields) != len(prov) {
		return fmt.Errorf("provenance covers %v, delivered fields are %v", slices.Sorted(maps.Keys(prov)), slices.Sorted(maps.Keys(fields)))
	}
	for _, name := range slices.Sorted(maps.Keys(fields)) {
		p, ok := prov[name]
		if !ok {
			return fmt.Errorf("field %s has no provenance", name)
		}
		if err := gateWinner(name, fields[name], p); err != nil {
			return err
		}
	}
	return nil
}

func gateWinner(name string, delivered any, p catalog.FieldProvenance) error {
	want, err := json.Marshal(delivered)
	if err != nil {
		return err
	}
	if !bytes.Equal(want, p.Value) && !jsonSame(want, p.Value) {
		return fmt.Errorf("field %s: provenance winner %s differs from the delivered value %s", name, p.Value, want)
	}
	selected := 0
	for _, c := range p.Candidates {
		if c.Selected {
			selected++
			if (!bytes.Equal(c.Value, p.Value) && !jsonSame(c.Value, p.Value)) || c.Source != p.Source || c.Precedence != p.Precedence {
				return fmt.Errorf("field %s: the selected candidate is not the winner", name)
			}
		}
	}
	if selected != 1 {
		return fmt.Errorf("field %s: %d selected candidates", name, selected)
	}
	return nil
}

// jsonSame reports whether two JSON texts encode the same value.
func jsonSame(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return bytes.Equal(a, b)
	}
	return reflect.DeepEqual(x, y)
}
