package ir

import "github.com/cetpgen/cetpgen/runtime/protocol"

// The IR's vocabulary is the runtime's: package protocol declares every
// effect, risk, confirmation policy, execution mode, capability, access
// and sensitivity once (runtime/protocol/vocab.go), and these names are
// aliases of it, so the generator and generated code cannot disagree.
type (
	// Effect is a tool's main effect on the world (CETP v2 §3.4).
	Effect = protocol.Effect
	// Risk is the impact of a failed or mistaken call.
	Risk = protocol.Risk
	// Confirmation is the Provider-side per-call confirmation policy.
	Confirmation = protocol.Confirmation
	// Execution says whether a tool may answer with a background operation.
	Execution = protocol.Execution
	// Capability is an optional CETP v2 capability (§2.3).
	Capability = protocol.Capability
	// Access is what a scope grants.
	Access = protocol.Access
	// Sensitivity classifies the data behind a scope.
	Sensitivity = protocol.Sensitivity
)

// The values, as package protocol declares them.
const (
	EffectRead            = protocol.EffectRead
	EffectCreate          = protocol.EffectCreate
	EffectUpdate          = protocol.EffectUpdate
	EffectDelete          = protocol.EffectDelete
	EffectTransaction     = protocol.EffectTransaction
	RiskLow               = protocol.RiskLow
	RiskModerate          = protocol.RiskModerate
	RiskHigh              = protocol.RiskHigh
	ConfirmNever          = protocol.ConfirmNever
	ConfirmProviderPolicy = protocol.ConfirmProviderPolicy
	ConfirmAlways         = protocol.ConfirmAlways
	ExecSync              = protocol.ExecSync
	ExecSyncOrAsync       = protocol.ExecSyncOrAsync
	CapAsyncOperations    = Capability(protocol.CapAsyncOperations)
	CapCancellation       = Capability(protocol.CapCancellation)
	CapLargeResults       = Capability(protocol.CapLargeResults)
	AccessRead            = protocol.AccessRead
	AccessWrite           = protocol.AccessWrite
	SensitivityPublic     = protocol.SensitivityPublic
	SensitivityPersonal   = protocol.SensitivityPersonal
	SensitivityFinancial  = protocol.SensitivityFinancial
	SensitivityHealth     = protocol.SensitivityHealth
	SensitivityDevice     = protocol.SensitivityDevice
	SensitivityOther      = protocol.SensitivityOther
)
