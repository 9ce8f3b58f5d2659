package catalog

import (
	"fmt"

	"github.com/cetpgen/cetpgen/runtime/catalog"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// Runtime gates of a metadata entry (dws schema_hints/metadata
// runtime_gate): how the command itself asks the user at run time.
var runtimeGates = []string{"none", "confirm_delete", "typed_yes", "confirm_dangerous"}

var baselineHash = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

// checkSources checks what the reviewed sources say about themselves
// against the bound registry: binding history keys name bound tools and
// agree with the active bindings, metadata cli_path and runtime_gate are
// valid. Every problem is reported, sorted.
func checkSources(in *Input, bound *BoundRegistry) error {
	var problems []string
	if b := in.Bindings; b != nil {
		problems = append(problems, bindingProblems(b, bound)...)
	}
	for _, m := range in.Metadata {
		problems = append(problems, metadataProblems(m, bound)...)
	}
	if len(problems) > 0 {
		sort.Strings(problems)
		return fmt.Errorf("sources: %s", strings.Join(problems, "; "))
	}
	return nil
}

// splitFlagKey splits "<canonical> --<flag>".
func splitFlagKey(key string) (canonical, flag string, ok bool) {
	canonical, flag, ok = strings.Cut(key, " --")
	return canonical, flag, ok && canonical != "" && flag != "" && !strings.ContainsAny(flag, " =")
}

func bindingProblems(b *Bindings, bound *BoundRegistry) []string {
	ref := b.Ref
	var out []string
	bad := func(format string, args ...any) { out = append(out, ref+": "+fmt.Sprintf(format, args...)) }
	active := func(key string) bool {
		c, f, ok := splitFlagKey(key)
		_, bound := b.Tools[c][f]
		_, excluded := b.MappingExclusions[key]
		return ok && (bound || excluded)
	}
	keyed := func(section, key string) bool {
		c, _, ok := splitFlagKey(key)
		switch {
		case !ok:
			bad("%s key %q is not \"<canonical> --<flag>\"", section, key)
		case bound.ByCanonical[c] == nil:
			bad("%s key %q names a tool that is not in the effective registry", section, key)
		default:
			return true
		}
		return false
	}
	if bl := b.Baseline; bl != nil {
		if bl.Manifest == "" || !baselineHash.MatchString(bl.SHA256) || bl.Reason == "" || !bl.Reviewed {
			bad("baseline needs a manifest, a sha256:<64 hex> digest, a reason and reviewed: true")
		}
	}
	for _, key := range slices.Sorted(maps.Keys(b.MappingExclusions)) {
		if keyed("mapping_exclusions", key) {
			if c, f, _ := splitFlagKey(key); b.Tools[c][f] != "" {
				bad("flag %q is both bound and excluded from mapping", key)
			}
		}
	}
	for _, key := range slices.Sorted(maps.Keys(b.Removals)) {
		r := b.Removals[key]
		if !keyed("removals", key) {
			continue
		}
		switch {
		case !r.Reviewed || r.Reason == "":
			bad("removal %q needs a reason and reviewed: true", key)
		case active(key):
			bad("removal %q names a flag that is still bound or excluded", key)
		case r.ReplacedBy != "" && !active(r.ReplacedBy):
			bad("removal %q is replaced by %q, which is not an active binding", key, r.ReplacedBy)
		}
		if c, f, _ := splitFlagKey(key); bound.ByCanonical[c] != nil && visibleFlag(bound.ByCanonical[c], f) {
			bad("removal %q names a flag that %q still accepts as a visible parameter; bind or exclude it", key, bound.ByCanonical[c].Spec.CLIPath)
		}
	}
	for _, key := range slices.Sorted(maps.Keys(b.Corrections)) {
		co := b.Corrections[key]
		if !keyed("corrections", key) {
			continue
		}
		c, f, _ := splitFlagKey(key)
		switch got, ok := b.Tools[c][f]; {
		case !co.Reviewed || co.Reason == "" || co.NewProperty == "" || co.OldProperty == co.NewProperty:
			bad("correction %q needs a reason, reviewed: true and a new_property other than old_property", key)
		case !ok:
			bad("correction %q names a flag that is not bound", key)
		case got != co.NewProperty:
			bad("correction %q says %q, but the binding is %q", key, co.NewProperty, got)
		}
	}
	return out
}

// visibleFlag reports whether the bound command accepts flag as one of its
// parameters.
func visibleFlag(bc *BoundCommand, flag string) bool {
	for _, tf := range visibleFlags(bc.Flags) {
		if tf.Flag.Name == flag {
			return true
		}
	}
	return false
}

func metadataProblems(m MetadataSource, bound *BoundRegistry) []string {
	var out []string
	for _, c := range slices.Sorted(maps.Keys(m.Tools)) {
		t, bc := m.Tools[c], bound.ByCanonical[c]
		if t.RuntimeGate != "" && !slices.Contains(runtimeGates, t.RuntimeGate) {
			out = append(out, fmt.Sprintf("%s: %s: runtime_gate %q is not one of %v", m.Ref, c, t.RuntimeGate, runtimeGates))
		}
		if t.CLIPath == "" || bc == nil {
			continue
		}
		if t.CLIPath != bc.Spec.CLIPath && !slices.Contains(bc.Spec.Aliases, t.CLIPath) {
			out = append(out, fmt.Sprintf("%s: %s: cli_path %q is neither the primary path %q nor an alias", m.Ref, c, t.CLIPath, bc.Spec.CLIPath))
		}
	}
	return out
}

// gateRuntimeConfirmation requires, for every tool whose metadata states a
// runtime_gate, that the delivered confirmation be user_required exactly
// when the gate is not none: the catalog must not promise a confirmation
// the command does not ask for, nor hide one it does.
func gateRuntimeConfirmation(in *Input, reg *catalog.Registry) error {
	tools := map[string]*catalog.ToolSpec{}
	for _, t := range reg.Tools() {
		tools[t.Identity.CanonicalPath] = t
	}
	var problems []string
	for _, m := range in.Metadata {
		for _, c := range slices.Sorted(maps.Keys(m.Tools)) {
			gate, t := m.Tools[c].RuntimeGate, tools[c]
			if gate == "" || t == nil {
				continue
			}
			if want := gate != "none"; (t.Safety.Confirmation == "user_required") != want {
				problems = append(problems, fmt.Sprintf("%s: %s: runtime_gate %q but confirmation %q", m.Ref, c, gate, t.Safety.Confirmation))
			}
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("runtime confirmation gate: %s", strings.Join(problems, "; "))
	}
	return nil
}
