package protocol

// This file declares the CETP v2 vocabulary of descriptors and tool
// annotations once (§2.3, §3.2, §3.4): the generator's IR and the Go
// emitter use these types and lists, and a test checks that the
// meta-schemas under schema/ enumerate exactly these values.

// Effect is a tool's main effect on the world (CETP v2 §3.4).
type Effect string

// The effects.
const (
	EffectRead        Effect = "read"
	EffectCreate      Effect = "create"
	EffectUpdate      Effect = "update"
	EffectDelete      Effect = "delete"
	EffectTransaction Effect = "transaction"
)

// Writes reports whether the effect changes state (every effect but
// read); such tools are deduplicated by request ID and hidden from CETP v1.
func (e Effect) Writes() bool { return e != EffectRead }

// Risk is the impact of a failed or mistaken call (§3.4).
type Risk string

// The risks.
const (
	RiskLow      Risk = "low"
	RiskModerate Risk = "moderate"
	RiskHigh     Risk = "high"
)

// Confirmation is the Provider-side per-call confirmation policy (§3.4).
type Confirmation string

// The confirmation policies.
const (
	ConfirmNever          Confirmation = "never"
	ConfirmProviderPolicy Confirmation = "provider_policy"
	ConfirmAlways         Confirmation = "always"
)

// Execution says whether a tool may answer with a background operation
// (§3.4).
type Execution string

// The execution modes.
const (
	ExecSync        Execution = "sync"
	ExecSyncOrAsync Execution = "sync_or_async"
)

// Capability is an optional CETP v2 capability (§2.3). Its values are
// the untyped constants CapAsyncOperations, CapCancellation and
// CapLargeResults of keys.go, which the wire code uses as plain strings.
type Capability string

// Access is what a scope grants (§3.2).
type Access string

// The scope accesses.
const (
	AccessRead  Access = "read"
	AccessWrite Access = "write"
)

// Sensitivity classifies the data behind a scope (§3.2).
type Sensitivity string

// The scope sensitivities.
const (
	SensitivityPublic    Sensitivity = "public"
	SensitivityPersonal  Sensitivity = "personal"
	SensitivityFinancial Sensitivity = "financial"
	SensitivityHealth    Sensitivity = "health"
	SensitivityDevice    Sensitivity = "device"
	SensitivityOther     Sensitivity = "other"
)

// The complete value lists, in the order the protocol lists them.
var (
	Effects       = []Effect{EffectRead, EffectCreate, EffectUpdate, EffectDelete, EffectTransaction}
	Risks         = []Risk{RiskLow, RiskModerate, RiskHigh}
	Confirmations = []Confirmation{ConfirmNever, ConfirmProviderPolicy, ConfirmAlways}
	Executions    = []Execution{ExecSync, ExecSyncOrAsync}
	Capabilities  = []Capability{CapAsyncOperations, CapCancellation, CapLargeResults}
	Accesses      = []Access{AccessRead, AccessWrite}
	Sensitivities = []Sensitivity{SensitivityPublic, SensitivityPersonal, SensitivityFinancial, SensitivityHealth, SensitivityDevice, SensitivityOther}
)

// Vocabulary is one annotation or descriptor field and its values: the
// field's name as the Go runtime's constants spell their prefix
// ("Effect", "Confirm") and the values in protocol order.
type Vocabulary struct {
	// Field is the wire member ("effect", "confirmation", "sensitivity").
	Field string
	// GoPrefix is the prefix of the constants of package provider and of
	// this package for the values ("Confirm" + "ProviderPolicy").
	GoPrefix string
	// GoType names the Go type of the values in this package and in
	// package provider ("Confirmation").
	GoType string
	Values []string
	// Annotation is true for the enumerated tool annotations of §3.4
	// (effect, risk, confirmation, execution).
	Annotation bool
}

// Vocabularies lists every enumerated field of descriptors and
// annotations, in a fixed order.
func Vocabularies() []Vocabulary {
	return []Vocabulary{
		{"effect", "Effect", "Effect", strs(Effects), true},
		{"risk", "Risk", "Risk", strs(Risks), true},
		{"confirmation", "Confirm", "Confirmation", strs(Confirmations), true},
		{"execution", "Exec", "Execution", strs(Executions), true},
		{"capabilities", "Cap", "Capability", strs(Capabilities), false},
		{"access", "Access", "Access", strs(Accesses), false},
		{"sensitivity", "Sensitivity", "Sensitivity", strs(Sensitivities), false},
	}
}

// AnnotationVocabularies lists the enumerated tool annotations of §3.4
// (effect, risk, confirmation, execution) in protocol order.
func AnnotationVocabularies() []Vocabulary {
	var out []Vocabulary
	for _, v := range Vocabularies() {
		if v.Annotation {
			out = append(out, v)
		}
	}
	return out
}

// AnnotationFlags are the boolean tool annotations of §3.4, in the order
// the protocol lists them.
var AnnotationFlags = []string{"destructive", "idempotent", "open_world"}

// CapabilityNames returns the optional capabilities as plain strings, the
// form the wire code and session negotiation use.
func CapabilityNames() []string { return strs(Capabilities) }

// ConfirmationReason says why §3.4 requires confirmation always for a
// tool with these annotations (a delete or transaction effect, a
// destructive tool, a high risk), or "" when it does not.
func ConfirmationReason(effect Effect, risk Risk, destructive bool) string {
	switch {
	case effect == EffectDelete || effect == EffectTransaction:
		return "the tool's effect is " + string(effect)
	case destructive:
		return "the tool is destructive"
	case risk == RiskHigh:
		return "the tool's risk is high"
	}
	return ""
}

// strs converts a value list to strings.
func strs[T ~string](vs []T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}
