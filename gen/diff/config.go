package diff

import (
	"fmt"
	"maps"
	"slices"
	"sort"
)

// ConfigFile is the name of the per-repository configuration that cetpgen
// diff reads from the current directory.
const ConfigFile = ".cetpgen-diff.yaml"

// Config is a repository's diff policy: severity overrides per rule and
// acknowledgements of specific changes.
type Config struct {
	// Mode is the contract mode (containment or declared); empty means
	// DefaultMode, and a --mode flag overrides it.
	Mode        Mode                `yaml:"mode"`
	Severity    map[string]Severity `yaml:"severity"`
	Acknowledge []Ack               `yaml:"acknowledge"`
}

// Ack acknowledges every change of one rule on one tool ("" for changes
// of the Provider itself), so that it no longer fails the run.
type Ack struct {
	Rule   string `yaml:"rule"`
	Tool   string `yaml:"tool"`
	Reason string `yaml:"reason"`
}

// Check reports the first problem of the config: an unknown mode, an
// unknown rule ID, an unknown severity, or an acknowledgement without a
// reason.
func (cfg *Config) Check() error {
	if cfg.Mode != "" && !ValidMode(string(cfg.Mode)) {
		return fmt.Errorf("mode: %q is not containment or declared", cfg.Mode)
	}
	for _, id := range slices.Sorted(maps.Keys(cfg.Severity)) {
		if _, ok := rules[id]; !ok {
			return fmt.Errorf("severity: unknown rule %q", id)
		}
		if !ValidSeverity(string(cfg.Severity[id])) {
			return fmt.Errorf("severity of %s: %q is not breaking, dangerous or info", id, cfg.Severity[id])
		}
	}
	for i, a := range cfg.Acknowledge {
		if _, ok := rules[a.Rule]; !ok {
			return fmt.Errorf("acknowledge[%d]: unknown rule %q", i, a.Rule)
		}
		if a.Reason == "" {
			return fmt.Errorf("acknowledge[%d] (%s on %s): give a reason", i, a.Rule, a.Tool)
		}
	}
	return nil
}

// Apply sets each change's severity from the config and marks the changes
// it acknowledges.
func (r *Report) Apply(cfg *Config) {
	if cfg == nil {
		return
	}
	for i := range r.Changes {
		ch := &r.Changes[i]
		if s, ok := cfg.Severity[ch.Rule]; ok {
			ch.Severity = s
		}
		for _, a := range cfg.Acknowledge {
			if a.Rule == ch.Rule && a.Tool == ch.Tool {
				ch.Acknowledged, ch.Reason = true, a.Reason
			}
		}
	}
	r.sort()
}

// Fails reports whether any change fails the run: a breaking or dangerous
// change the config does not acknowledge.
func (r *Report) Fails() bool {
	for _, c := range r.Changes {
		if c.Fails() {
			return true
		}
	}
	return false
}

// Verdict is the report's overall verdict: "breaking" or "dangerous" after
// the most serious unacknowledged change, else "compatible".
func (r *Report) Verdict() string {
	v := "compatible"
	for _, c := range r.Changes {
		if c.Fails() && (v == "compatible" || c.Severity == Breaking) {
			v = string(c.Severity)
		}
	}
	return v
}

// counts tallies unacknowledged changes by severity, and acknowledged ones.
func (r *Report) counts() (bySeverity map[Severity]int, acked int) {
	bySeverity = map[Severity]int{}
	for _, c := range r.Changes {
		if c.Acknowledged {
			acked++
			continue
		}
		bySeverity[c.Severity]++
	}
	return bySeverity, acked
}

// toolNames returns the tools that have changes, sorted, the Provider
// ("") first.
func (r *Report) toolNames() []string {
	seen := map[string]bool{}
	var out []string
	for _, c := range r.Changes {
		if !seen[c.Tool] {
			seen[c.Tool] = true
			out = append(out, c.Tool)
		}
	}
	sort.Strings(out)
	return out
}

// sectionOrder returns the tools with changes in report order: those with
// safety changes first, then those with compatibility changes, then the
// rest; by name within each group, the Provider ("") first.
func (r *Report) sectionOrder() []string {
	names := r.toolNames()
	first := map[string]int{}
	for _, c := range r.Changes {
		if k, seen := first[c.Tool]; !seen || c.Category.rank() < k {
			first[c.Tool] = c.Category.rank()
		}
	}
	sort.SliceStable(names, func(i, j int) bool { return first[names[i]] < first[names[j]] })
	return names
}
