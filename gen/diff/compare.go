package diff

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/cetpgen/cetpgen/gen/ir"
	"github.com/cetpgen/cetpgen/gen/source"
)

// Change is one consequence of a spec change that a reviewer should see.
type Change struct {
	Rule     string
	Severity Severity
	Category Category
	// Tool is the tool the change belongs to; "" for the Provider.
	Tool string
	// Message says what changed.
	Message string
	// Pos is where the change is in the new spec (or, for something that
	// is gone, the nearest place that still exists).
	Pos source.Pos
	// Undecided marks a schema difference whose compatibility could not
	// be decided.
	Undecided bool
	// Acknowledged is set when the repository's config accepts the change;
	// Reason is the config's reason.
	Acknowledged bool
	Reason       string
}

// Fails reports whether the change fails a run.
func (c Change) Fails() bool { return c.Severity.Fails() && !c.Acknowledged }

// Report is the comparison of an old and a new Provider spec.
type Report struct {
	// Mode is the contract mode the schemas were compared in.
	Mode        Mode
	ProviderID  string
	OldDir      string
	NewDir      string
	OldRevision string
	NewRevision string
	Changes     []Change
	// Tools holds the schema verdicts of every tool present on both sides.
	Tools []ToolVerdict
}

// ToolVerdict is the schema compatibility of one tool present on both
// sides: "compatible", "incompatible" or "unknown", for input and output.
type ToolVerdict struct {
	Tool   string `json:"tool"`
	Input  string `json:"input"`
	Output string `json:"output"`
}

// Compare compares the IR of two versions of one Provider spec, reading
// the tool schemas' contract in mode.
func Compare(old, new *ir.Provider, mode Mode) *Report {
	r := &Report{
		Mode: mode, ProviderID: new.ID, OldDir: old.Dir, NewDir: new.Dir,
		OldRevision: old.Revision, NewRevision: new.Revision,
	}
	c := &comparison{old: old, new: new, r: r}
	c.provider()
	c.tools()
	c.revision()
	r.sort()
	return r
}

// comparison carries the state of one Compare.
type comparison struct {
	old, new *ir.Provider
	r        *Report
	// toolsChanged is set when any tool content that enters the revision
	// differs; changedTools names those tools (removed, added, renamed or
	// changed).
	toolsChanged bool
	changedTools []string
}

// add records a change under rule id, with its default severity.
func (c *comparison) add(id, tool string, pos source.Pos, format string, args ...any) {
	r, ok := rules[id]
	if !ok {
		panic("diff: unknown rule " + id)
	}
	c.r.Changes = append(c.r.Changes, Change{
		Rule: id, Severity: r.Severity, Category: r.Category, Tool: tool,
		Message: fmt.Sprintf(format, args...), Pos: pos,
	})
}

// sort orders changes by tool (the Provider first), category, severity,
// rule and position.
func (r *Report) sort() {
	sort.SliceStable(r.Changes, func(i, j int) bool { return lessChange(r.Changes[i], r.Changes[j]) })
}

// lessChange orders two changes for the report.
func lessChange(a, b Change) bool {
	if a.Tool != b.Tool {
		return a.Tool < b.Tool
	}
	if x, y := a.Category.rank(), b.Category.rank(); x != y {
		return x < y
	}
	if x, y := a.Severity.rank(), b.Severity.rank(); x != y {
		return x < y
	}
	if a.Rule != b.Rule {
		return a.Rule < b.Rule
	}
	return a.Pos.Less(b.Pos)
}

// provider compares the Provider-level facts.
func (c *comparison) provider() {
	if c.old.ID != c.new.ID {
		c.add("provider-id-changed", "", c.new.PosOf("/provider/id"), "provider id changed from %s to %s", c.old.ID, c.new.ID)
	}
	c.versions()
	c.capabilities()
	c.limits()
	c.scopes()
}

// versions compares the served CETP versions.
func (c *comparison) versions() {
	pos := c.new.PosOf("/versions")
	for _, v := range c.old.Versions {
		if !slices.Contains(c.new.Versions, v) {
			c.add("version-dropped", "", pos, "CETP version %d is no longer served", v)
		}
	}
	for _, v := range c.new.Versions {
		if !slices.Contains(c.old.Versions, v) {
			c.add("version-added", "", pos, "CETP version %d is now served", v)
		}
	}
}

// capabilities compares the declared capabilities.
func (c *comparison) capabilities() {
	pos := c.new.PosOf("/capabilities")
	for _, cap := range c.old.Capabilities {
		if !c.new.Has(cap) {
			c.add("capability-dropped", "", pos, "capability %s is no longer declared", cap)
		}
	}
	for _, cap := range c.new.Capabilities {
		if !c.old.Has(cap) {
			c.add("capability-added", "", pos, "capability %s is now declared", cap)
		}
	}
}

// limits compares each limit.
func (c *comparison) limits() {
	o, n := c.old.Limits, c.new.Limits
	for _, l := range []struct {
		name     string
		old, new int64
	}{
		{"max_request_bytes", o.MaxRequestBytes, n.MaxRequestBytes},
		{"max_inline_result_bytes", o.MaxInlineResultBytes, n.MaxInlineResultBytes},
		{"max_concurrent_requests", o.MaxConcurrentRequests, n.MaxConcurrentRequests},
		{"idempotency_window_seconds", o.IdempotencyWindowSeconds, n.IdempotencyWindowSeconds},
	} {
		c.limit(l.name, l.old, l.new)
	}
}

// limit compares one limit.
func (c *comparison) limit(name string, old, new int64) {
	pos := c.new.PosOf("/limits/" + name)
	switch {
	case new < old:
		c.add("limit-lowered", "", pos, "%s lowered from %d to %d", name, old, new)
	case new > old:
		c.add("limit-raised", "", pos, "%s raised from %d to %d", name, old, new)
	}
}

// scopes compares the scope catalogs.
func (c *comparison) scopes() {
	for _, s := range c.old.Scopes {
		ns := c.new.Scope(s.Name)
		if ns == nil {
			c.add("scope-removed", "", c.new.PosOf("/scopes"), "scope %s removed", s.Name)
			continue
		}
		c.scopeFacts(s, ns)
	}
	for _, s := range c.new.Scopes {
		if c.old.Scope(s.Name) == nil {
			c.add("scope-added", "", s.Pos, "scope %s added (%s, %s)", s.Name, s.Access, s.Sensitivity)
		}
	}
}

// scopeFacts compares the access and sensitivity of one scope.
func (c *comparison) scopeFacts(old, new *ir.Scope) {
	if old.Access != new.Access {
		c.add("scope-access-changed", "", new.Pos, "scope %s access changed from %s to %s", new.Name, old.Access, new.Access)
	}
	if old.Sensitivity != new.Sensitivity {
		c.add("scope-sensitivity-changed", "", new.Pos, "scope %s sensitivity changed from %s to %s", new.Name, old.Sensitivity, new.Sensitivity)
	}
}

// revision reports the revision change and checks that it changed exactly
// when tool content did.
func (c *comparison) revision() {
	changed := c.old.Revision != c.new.Revision
	pos := source.FileStart(c.new.File)
	switch {
	case changed != c.toolsChanged:
		c.add("revision-mismatch", "", pos, "revision %s -> %s, but the tools %s", c.old.Revision, c.new.Revision, map[bool]string{true: "changed", false: "did not change"}[c.toolsChanged])
	case changed:
		names := slices.Compact(slices.Sorted(slices.Values(c.changedTools)))
		c.add("revision-changed", "", pos, "revision %s -> %s, changed by %s", c.old.Revision, c.new.Revision, strings.Join(names, ", "))
	}
}
