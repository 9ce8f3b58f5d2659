package diff

import "sort"

// Severity is how much a change matters to a reviewer.
type Severity string

// The severities, from most to least serious. Breaking and dangerous
// changes fail a run unless acknowledged.
const (
	Breaking  Severity = "breaking"
	Dangerous Severity = "dangerous"
	Info      Severity = "info"
)

// rank orders severities, most serious first.
func (s Severity) rank() int {
	switch s {
	case Breaking:
		return 0
	case Dangerous:
		return 1
	}
	return 2
}

// Fails reports whether an unacknowledged change of severity s fails a run.
func (s Severity) Fails() bool { return s == Breaking || s == Dangerous }

// ValidSeverity reports whether s names a severity.
func ValidSeverity(s string) bool {
	return s == string(Breaking) || s == string(Dangerous) || s == string(Info)
}

// Category groups rules for the report: safety changes come first.
type Category string

// The categories, in report order.
const (
	Safety        Category = "safety"
	Compatibility Category = "compatibility"
	Bookkeeping   Category = "bookkeeping"
)

// rank orders categories as the report shows them.
func (c Category) rank() int {
	switch c {
	case Safety:
		return 0
	case Compatibility:
		return 1
	}
	return 2
}

// Rule is one kind of change the comparison detects.
type Rule struct {
	ID       string
	Severity Severity
	Category Category
	// When says what triggers the rule.
	When string
	// Why says why it matters to Consumers or users.
	Why string
}

// rule is shorthand for building the rule table.
func rule(id string, sev Severity, cat Category, when, why string) Rule {
	return Rule{ID: id, Severity: sev, Category: cat, When: when, Why: why}
}

// rules is every rule, by ID.
var rules = map[string]Rule{}

// init indexes the rule groups by ID.
func init() {
	for _, group := range [][]Rule{providerRules, toolRules, safetyRules, inputRules, outputRules} {
		for _, r := range group {
			rules[r.ID] = r
		}
	}
}

// Rules returns every rule, ordered by category, then ID.
func Rules() []Rule {
	out := make([]Rule, 0, len(rules))
	for _, r := range rules {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool {
		if a, b := out[i].Category.rank(), out[j].Category.rank(); a != b {
			return a < b
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// Lookup returns the rule with the given ID.
func Lookup(id string) (Rule, bool) {
	r, ok := rules[id]
	return r, ok
}

var providerRules = []Rule{
	rule("provider-id-changed", Breaking, Compatibility, "provider.id changed",
		"Consumers route calls by (provider_id, tool_name); a new id is a different Provider to them and loses every grant."),
	rule("version-dropped", Breaking, Compatibility, "a CETP version left versions",
		"Consumers that speak only that version can no longer negotiate with the Provider."),
	rule("version-added", Info, Compatibility, "a CETP version joined versions",
		"More Consumers can connect; with 1 added, v1 Consumers see the read tools."),
	rule("capability-dropped", Breaking, Compatibility, "a capability left capabilities",
		"Consumers that negotiated it (async operations, cancellation, large results) lose a behaviour they rely on."),
	rule("capability-added", Info, Compatibility, "a capability joined capabilities",
		"Consumers may negotiate it; nothing existing changes."),
	rule("limit-lowered", Breaking, Compatibility, "a limit went down",
		"Requests, results or concurrency that worked before can now be refused."),
	rule("limit-raised", Info, Compatibility, "a limit went up",
		"The Provider accepts more; nothing that worked stops working."),
	rule("scope-added", Info, Compatibility, "a scope joined the Provider's scope catalog",
		"A new permission Consumers may show; it matters where a tool requires it."),
	rule("scope-removed", Info, Compatibility, "a scope left the Provider's scope catalog",
		"Grants of that scope no longer mean anything; tools that used it are reported separately."),
	rule("scope-access-changed", Dangerous, Safety, "a scope's access changed (read/write)",
		"Users granted the scope under the old description; a read grant that now allows writes was never consented to."),
	rule("scope-sensitivity-changed", Dangerous, Safety, "a scope's sensitivity changed",
		"Consumers decide how to present and guard a grant by its sensitivity; existing grants were given under the old class."),
	rule("revision-changed", Info, Bookkeeping, "the computed tool-set revision changed",
		"Consumers cache tools by revision (CETP v2 §3.3); a new revision makes them fetch the tool list again."),
	rule("revision-mismatch", Breaking, Bookkeeping, "the revision did not change although tools did, or changed although they did not",
		"Consumers would keep a stale tool list, or refetch for nothing; the revision must change exactly when tools change."),
}

var toolRules = []Rule{
	rule("tool-removed", Breaking, Compatibility, "a tool was removed",
		"Consumers and agents that call it get TOOL_NOT_FOUND."),
	rule("tool-renamed", Breaking, Compatibility, "a tool was removed and one with the same schemas, scopes and annotations added",
		"Routing uses the tool name; every caller of the old name breaks."),
	rule("tool-added", Info, Compatibility, "a read tool was added",
		"A new capability; nothing existing changes."),
	rule("tool-text-changed", Info, Compatibility, "a tool's title or description changed",
		"Agents choose tools by these texts; review the wording, it changes the revision."),
	rule("tool-scope-added", Breaking, Compatibility, "a tool requires a scope it did not require before",
		"Callers holding the old grants now get AUTH_REQUIRED or PERMISSION_DENIED."),
	rule("execution-async", Breaking, Compatibility, "execution changed from sync to sync_or_async",
		"Callers that expected an inline result may now receive a background operation they must poll."),
	rule("execution-sync", Info, Compatibility, "execution changed from sync_or_async to sync",
		"Callers always get an inline result; nothing breaks."),
}

var safetyRules = []Rule{
	rule("write-tool-added", Dangerous, Safety, "a tool with an effect other than read was added",
		"A new way to change state is exposed to agents; review its confirmation, scopes and risk."),
	rule("effect-write", Dangerous, Safety, "effect moved away from read",
		"A tool agents called freely now changes state: it is deduplicated, needs write scopes and may need confirmation."),
	rule("effect-changed", Dangerous, Safety, "effect changed between kinds of write, or from a write to read",
		"The kind of change a call makes is different; Consumers' policies key on the effect."),
	rule("v1-tool-becomes-write", Dangerous, Safety, "a read tool of a dual-stack Provider, visible to CETP v1 Consumers, became a write tool",
		"v1 Consumers lose the tool (v1 sees only read tools, §8) and integrations built on it through v1 must move to v2."),
	rule("risk-raised", Dangerous, Safety, "risk went up",
		"Mistaken calls now do more harm; check confirmation and who may call the tool."),
	rule("risk-lowered", Dangerous, Safety, "risk went down",
		"Consumers relax their UI and policy for lower risk; the tool must really be less harmful."),
	rule("destructive-on", Dangerous, Safety, "destructive turned on",
		"Calls can now cause irreversible loss of data or assets."),
	rule("destructive-off", Dangerous, Safety, "destructive turned off",
		"Consumers stop warning about irreversible loss; the tool must really be reversible now."),
	rule("open-world-on", Dangerous, Safety, "open_world turned on",
		"The tool now reads or affects systems outside the Provider's control."),
	rule("open-world-off", Info, Safety, "open_world turned off",
		"The tool stays within the Provider's own systems."),
	rule("confirmation-weakened", Dangerous, Safety, "confirmation went down (always > provider_policy > never)",
		"Calls the user confirmed one by one can now run without a per-call confirmation."),
	rule("confirmation-strengthened", Info, Safety, "confirmation went up",
		"More calls need the user's confirmation; callers must handle USER_ACTION_REQUIRED."),
	rule("idempotent-changed", Info, Safety, "idempotent changed",
		"Whether repeating a call has the same effect changed; retry policies may differ."),
	rule("tool-scope-removed", Dangerous, Safety, "a tool no longer requires a scope",
		"Callers without that grant can now run the tool."),
}

var inputRules = []Rule{
	rule("input-required-added", Breaking, Compatibility, "an input property became required, whatever additionalProperties says (a rename of a required property names both)",
		"Existing calls that omit it fail with INVALID_ARGS."),
	rule("input-property-removed", Breaking, Compatibility, "an input property was removed where additionalProperties is false",
		"Existing calls that send it fail with INVALID_ARGS."),
	rule("input-property-constrained", Dangerous, Compatibility, "containment mode: an input that accepted any additional property now declares one with constraints",
		"Calls that sent that property with another value were accepted before and are rejected now."),
	rule("input-property-added", Info, Compatibility, "an input property was declared (optional or required; a required one is also input-required-added)",
		"Agents and newly generated Consumers can send it; review its meaning."),
	rule("input-type-narrowed", Breaking, Compatibility, "an input accepts fewer types (incl. null, or number to integer)",
		"Existing calls with the dropped type fail with INVALID_ARGS."),
	rule("input-enum-value-removed", Breaking, Compatibility, "an input enum/const accepts fewer values, or was added",
		"Existing calls with the dropped value fail with INVALID_ARGS."),
	rule("input-bound-tightened", Breaking, Compatibility, "an input bound tightened: minimum/maximum/exclusive*, multipleOf, minLength/maxLength, minItems/maxItems, minProperties/maxProperties, uniqueItems, pattern or format changed",
		"Existing calls near the old bound fail with INVALID_ARGS."),
	rule("input-narrowed", Breaking, Compatibility, "an input rejects something else it accepted (e.g. additionalProperties: false added)",
		"Existing calls that relied on it fail with INVALID_ARGS."),
	rule("input-ref-target-changed", Breaking, Compatibility, "a $ref target of the input changed shape so that it accepts less",
		"Every place that uses the definition rejects calls it accepted before."),
	rule("input-undecided", Dangerous, Compatibility, "input compatibility cannot be decided structurally (the keyword is named)",
		"cetpgen cannot prove old calls still validate; a human must check."),
}

var outputRules = []Rule{
	rule("output-property-added", Info, Compatibility, "an output property was declared",
		"Consumers generated from the new schema can read it; old ones ignore it."),
	rule("output-property-removed", Breaking, Compatibility, "an output property was removed",
		"Consumers that read it find it missing."),
	rule("output-property-optional", Breaking, Compatibility, "an output property is no longer required",
		"Consumers that read it unconditionally can fail when it is absent."),
	rule("output-type-widened", Breaking, Compatibility, "an output may have more types (incl. null)",
		"Consumers decoding the old type fail on the new one."),
	rule("output-enum-value-added", Breaking, Compatibility, "an output enum/const admits more values, or was removed",
		"Consumers that switch over the known values meet one they do not handle."),
	rule("output-bound-loosened", Breaking, Compatibility, "an output bound loosened (or pattern/format changed)",
		"Consumers that relied on the bound (sizes, ranges, formats) can get values outside it."),
	rule("output-widened", Breaking, Compatibility, "an output admits something else it did not (e.g. additionalProperties: false removed)",
		"Strict Consumers reject results they did not expect."),
	rule("output-ref-target-changed", Breaking, Compatibility, "a $ref target of the output changed shape so that it admits more",
		"Every place that uses the definition can return values Consumers did not expect."),
	rule("output-undecided", Dangerous, Compatibility, "output compatibility cannot be decided structurally (the keyword is named)",
		"cetpgen cannot prove new results still satisfy old Consumers; a human must check."),
}
