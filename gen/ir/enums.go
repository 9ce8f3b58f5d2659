package ir

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

// Writes reports whether the effect changes state (every effect but read);
// such tools are deduplicated by request ID and hidden from CETP v1.
func (e Effect) Writes() bool { return e != EffectRead }

// Risk is the impact of a failed or mistaken call.
type Risk string

// The risks.
const (
	RiskLow      Risk = "low"
	RiskModerate Risk = "moderate"
	RiskHigh     Risk = "high"
)

// Confirmation is the Provider-side per-call confirmation policy.
type Confirmation string

// The confirmation policies.
const (
	ConfirmNever          Confirmation = "never"
	ConfirmProviderPolicy Confirmation = "provider_policy"
	ConfirmAlways         Confirmation = "always"
)

// Execution says whether a tool may answer with a background operation.
type Execution string

// The execution modes.
const (
	ExecSync        Execution = "sync"
	ExecSyncOrAsync Execution = "sync_or_async"
)

// Capability is an optional CETP v2 capability (§2.3).
type Capability string

// The capabilities.
const (
	CapAsyncOperations Capability = "async_operations"
	CapCancellation    Capability = "cancellation"
	CapLargeResults    Capability = "large_results"
)

// Access is what a scope grants.
type Access string

// The scope accesses.
const (
	AccessRead  Access = "read"
	AccessWrite Access = "write"
)

// Sensitivity classifies the data behind a scope.
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
