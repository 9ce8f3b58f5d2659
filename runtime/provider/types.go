package provider

import (
	"context"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/store"
)

// The CETP v2 vocabulary of annotations and scopes is declared once, in
// package protocol; these aliases keep it under the engine's names.
type (
	// Effect is the effect annotation of §3.4.
	Effect = protocol.Effect
	// Risk is the risk annotation of §3.4.
	Risk = protocol.Risk
	// Confirmation is the confirmation annotation of §3.4.
	Confirmation = protocol.Confirmation
	// Execution is the execution annotation of §3.4.
	Execution = protocol.Execution
	// Access is the access of a scope (§3.2).
	Access = protocol.Access
	// Sensitivity is the sensitivity of a scope (§3.2).
	Sensitivity = protocol.Sensitivity
)

// The values of the vocabulary, as package protocol declares them.
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
	AccessRead            = protocol.AccessRead
	AccessWrite           = protocol.AccessWrite
	SensitivityPublic     = protocol.SensitivityPublic
	SensitivityPersonal   = protocol.SensitivityPersonal
	SensitivityFinancial  = protocol.SensitivityFinancial
	SensitivityHealth     = protocol.SensitivityHealth
	SensitivityDevice     = protocol.SensitivityDevice
	SensitivityOther      = protocol.SensitivityOther
)

// Annotations are the seven tool annotations of §3.4; every field must be
// set explicitly.
type Annotations struct {
	Effect       Effect       `json:"effect"`
	Risk         Risk         `json:"risk"`
	Destructive  bool         `json:"destructive"`
	Idempotent   bool         `json:"idempotent"`
	OpenWorld    bool         `json:"open_world"`
	Confirmation Confirmation `json:"confirmation"`
	Execution    Execution    `json:"execution"`
}

// Scope is one entry of the Provider's scope catalogue (§3.2).
type Scope struct {
	Name        string      `json:"name"`
	Title       string      `json:"title"`
	Description string      `json:"description"`
	Access      Access      `json:"access"`
	Sensitivity Sensitivity `json:"sensitivity"`
}

// Limits are the limits of §2.2. A zero field means the protocol minimum.
type Limits struct {
	MaxRequestBytes          int   `json:"max_request_bytes"`
	MaxInlineResultBytes     int   `json:"max_inline_result_bytes"`
	MaxConcurrentRequests    int   `json:"max_concurrent_requests"`
	IdempotencyWindowSeconds int64 `json:"idempotency_window_seconds"`
}

// The protocol minimums of §2.2.
const (
	MinRequestBytes          = protocol.MinRequestBytes
	MinInlineResultBytes     = protocol.MinInlineResultBytes
	MinConcurrentRequests    = protocol.MinConcurrentRequests
	MinIdempotencyWindowSecs = protocol.MinIdempotencyWindowSecs
)

// Descriptor is the identity of a Provider and what it offers.
type Descriptor struct {
	// ID is the stable provider_id (§3.1).
	ID string
	// Name and Description are shown to users.
	Name        string
	Description string
	// Scopes is the scope catalogue.
	Scopes []Scope
	// Versions are the supported major versions: [2] or [1, 2].
	Versions []int
	// Capabilities are the optional capabilities the Provider declares.
	Capabilities []string
	// Limits are the Provider's limits.
	Limits Limits
	// Revision, when set, is the content hash of the tool set that cetpgen
	// computed (the generated package's Revision constant); list_tools
	// answers it to callers who see every tool. Empty, the engine hashes
	// the tools it serves.
	Revision string
}

// Handler runs one tool call. args are the exact, schema-valid argument
// bytes. It returns the result JSON, which the engine validates against
// the tool's output schema. A *protocol.Error passes its code to the
// Consumer; any other error becomes INTERNAL_ERROR without its text.
type Handler func(ctx context.Context, call *Call, args json.RawMessage) (json.RawMessage, error)

// Tool registers one tool.
type Tool struct {
	// Name matches [a-z][a-z0-9_]{0,63}.
	Name        string
	Title       string
	Description string
	// InputSchema and OutputSchema are JSON Schema 2020-12 documents;
	// InputSchema describes an object. $ref may only be local.
	InputSchema  json.RawMessage
	OutputSchema json.RawMessage
	// Scopes is the complete set of scopes a call needs.
	Scopes []string
	// Annotations are the seven safety annotations.
	Annotations Annotations
	// Handler runs the tool.
	Handler Handler
}

// ToolInfo is the read-only view of a registered tool given to hooks.
type ToolInfo struct {
	Name        string
	Title       string
	Description string
	Scopes      []string
	Annotations Annotations
}

// CallerPackage is one package of a caller UID with the SHA-256 digests of
// its signing certificates (lowercase hex).
type CallerPackage struct {
	Name       string
	CertSHA256 []string
}

// Caller is the identity of the calling process as the transport captured
// it at its entry (the kernel's peer credentials, Binder's calling UID).
// It is never taken from the arguments.
type Caller struct {
	UID      int
	Packages []CallerPackage
}

// Key returns a stable key of the caller: the UID and every package with
// its certificate digests, sorted. A change of package set or signing
// certificate changes the key.
func (c Caller) Key() string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(c.UID))
	pkgs := append([]CallerPackage(nil), c.Packages...)
	sort.Slice(pkgs, func(i, j int) bool { return pkgs[i].Name < pkgs[j].Name })
	for _, p := range pkgs {
		b.WriteByte('|')
		b.WriteString(p.Name)
		certs := append([]string(nil), p.CertSHA256...)
		sort.Strings(certs)
		for _, c := range certs {
			b.WriteByte(':')
			b.WriteString(c)
		}
	}
	return b.String()
}

// Call is what a Handler learns about the call it runs.
type Call struct {
	// Caller is the identity captured by the transport.
	Caller Caller
	// RequestID is the request_id (empty for a v1 call without one).
	RequestID string
	// Tool is the tool being run.
	Tool ToolInfo
	// Deadline is deadline_at_ms (zero for v1 calls).
	Deadline time.Time
	// Version is the protocol version of the call, 1 or 2.
	Version int
	// Tx is the store's transaction for tools whose effect is not read;
	// the handler makes its business change through it so that the change
	// commits with the deduplication record. It is nil for read tools.
	Tx store.Tx
	// Operation is the operation ID when the call runs as a background
	// operation (§4.4), empty otherwise.
	Operation string

	progress func(Progress)
}

// ReportProgress publishes the progress of a background operation, shown
// by get_operation (at most every call; the message is cut to 256 bytes).
// It does nothing for a synchronous call.
func (c *Call) ReportProgress(p Progress) {
	if c.progress != nil {
		c.progress(p)
	}
}
