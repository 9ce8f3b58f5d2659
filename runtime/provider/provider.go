package provider

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"time"

	"github.com/cetpgen/cetpgen/runtime/internal/keylock"
	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/store"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// runtimeCapabilities are the optional capabilities this runtime
// supports: all three of §2.3. Negotiation grants only capabilities that
// the Descriptor declares, the Consumer asks for and the runtime supports.
var runtimeCapabilities = protocol.CapabilityNames()

// Options configure a Provider. Every hook has a safe default.
type Options struct {
	// Store keeps deduplication records and resume tokens. It is required
	// when any tool has an effect other than read or needs confirmation.
	Store store.Store
	// Visibility defaults to every tool visible to every caller.
	Visibility Visibility
	// Authorizer defaults to DenyAll.
	Authorizer Authorizer
	// Confirmer defaults to AutoDeny.
	Confirmer Confirmer
	// ConfirmPolicy defaults to DefaultConfirmPolicy.
	ConfirmPolicy ConfirmPolicy
	// Audit defaults to discarding events.
	Audit AuditSink
	// Now defaults to time.Now.
	Now func() time.Time
	// SessionTTL defaults to one hour.
	SessionTTL time.Duration
	// MaxSessions bounds the live sessions; it defaults to 4096.
	MaxSessions int
	// ResumeTTL is how long a resume token stays valid; it defaults to ten
	// minutes.
	ResumeTTL time.Duration
	// RetryAfter is the retry_after_ms of RATE_LIMITED; it defaults to
	// 100 ms.
	RetryAfter time.Duration
	// PollAfter is the poll_after_ms of accepted answers and of
	// operations that have not finished; it defaults to 500 ms.
	PollAfter time.Duration
	// AsyncWait is how long execute_tool waits for a new operation before
	// answering accepted; an operation that finishes sooner is answered
	// with its result. It defaults to 0: accepted at once.
	AsyncWait time.Duration
	// MaxOperations bounds the operations whose handlers run at once; the
	// others stay queued. It defaults to 16, and a store that implements
	// store.OperationSlots lowers it to its own bound.
	MaxOperations int
	// Recovery says what New does with operations an earlier process left
	// unfinished; it defaults to RecoverResume.
	Recovery RecoveryPolicy
	// CancelPoll is how often a running operation checks the store for a
	// cancel request made through another process; it defaults to 250 ms.
	CancelPoll time.Duration
	// MaxFileResultBytes bounds a result sent as a file; it defaults to
	// DefaultMaxFileResultBytes.
	MaxFileResultBytes int
	// TempDir is where file results are written before being unlinked;
	// it defaults to os.TempDir().
	TempDir string
	// MaxPendingTokens bounds the resume tokens (pending confirmations and
	// authorizations) one caller can have issued within ResumeTTL; past it
	// a call that needs one is RATE_LIMITED. It defaults to
	// DefaultMaxPendingTokens.
	MaxPendingTokens int
	// PurgeEvery is how often the Provider deletes expired records and
	// tokens in the background (Purge) until Close; it defaults to
	// DefaultPurgeEvery, and a negative value turns it off.
	PurgeEvery time.Duration
	// TombstoneTTL is how long a purged record's tombstone is kept, on a
	// store that keeps them (see expiry.go): the request ID answers
	// RESULT_EXPIRED meanwhile. It defaults to DefaultTombstoneTTL.
	TombstoneTTL time.Duration
}

// Provider is the engine of one CETP Provider. It is safe for concurrent
// use.
type Provider struct {
	desc     Descriptor
	limits   Limits
	caps     []string
	tools    map[string]*tool
	order    []*tool
	opt      Options
	audited  bool // Options.Audit was set
	info     []byte
	infoV1   []byte
	sessions sessions
	inflight inflight
	keys     keylock.Set[store.Key]
	launches keylock.Set[string] // one Launch at a time per resolution ID
	ops      operations
	tokens   tokenQuota
}

type tool struct {
	Tool
	info   ToolInfo
	in     *jsonschema.Schema
	out    *jsonschema.Schema
	wire   []byte // the list_tools entry
	wireV1 []byte // the v1 list_tools entry
	digest [sha256.Size]byte
	// wireSync and digestSync are the list_tools entry, and its digest,
	// shown to a session without async_operations: a sync_or_async tool
	// is listed as sync there, since that is how it runs (see
	// syncWire). For every other tool they equal wire and digest.
	wireSync   []byte
	digestSync [sha256.Size]byte
}

var (
	toolNameRE  = regexp.MustCompile(`^[a-z][a-z0-9_]{0,63}$`)
	scopeNameRE = regexp.MustCompile(`^[a-z][a-z0-9_.-]{0,127}$`)
)

// New builds a Provider from its descriptor, tools and options. It rejects
// every configuration the spec forbids: bad names, undeclared scopes,
// unknown annotation values, high-risk tools without confirmation always,
// sync_or_async without async_operations, limits below the minimums and
// schemas that do not compile or reference other documents. With a store
// and async_operations, New resumes (or fails, as Options.Recovery says)
// the operations an earlier process left unfinished; call Close to stop
// the background operations.
func New(desc Descriptor, tools []Tool, opt Options) (*Provider, error) {
	p := &Provider{desc: desc, tools: map[string]*tool{}, opt: withDefaults(opt), audited: opt.Audit != nil}
	var err error
	if p.limits, err = checkLimits(desc.Limits); err != nil {
		return nil, err
	}
	if err := checkDescriptor(desc); err != nil {
		return nil, err
	}
	p.caps = intersect(desc.Capabilities, runtimeCapabilities)
	scopes := map[string]bool{}
	for _, s := range desc.Scopes {
		scopes[s.Name] = true
	}
	for _, t := range tools {
		ct, err := compileTool(t, scopes, desc.Capabilities)
		if err != nil {
			return nil, fmt.Errorf("provider %s: %w", desc.ID, err)
		}
		if _, dup := p.tools[t.Name]; dup {
			return nil, fmt.Errorf("provider %s: duplicate tool %q", desc.ID, t.Name)
		}
		if needsStore(t) && opt.Store == nil {
			return nil, fmt.Errorf("provider %s: tool %s needs a durable store", desc.ID, t.Name)
		}
		p.tools[t.Name] = ct
		p.order = append(p.order, ct)
	}
	sort.Slice(p.order, func(i, j int) bool { return p.order[i].Name < p.order[j].Name })
	p.info, p.infoV1 = providerInfo(desc)
	p.sessions.max = p.opt.MaxSessions
	p.ops.init(operationSlots(p.opt))
	if err := p.recoverOperations(context.Background()); err != nil {
		p.Close(context.Background())
		return nil, err
	}
	p.startPurging()
	return p, nil
}

// needsStore reports whether a tool needs the durable store: for
// deduplication, confirmation tokens, authorization resume tokens or
// operations.
func needsStore(t Tool) bool {
	return t.Annotations.Effect != EffectRead || t.Annotations.Confirmation != ConfirmNever || len(t.Scopes) > 0 ||
		t.Annotations.Execution == ExecSyncOrAsync
}

func withDefaults(o Options) Options {
	if o.Visibility == nil {
		o.Visibility = func(context.Context, Caller, ToolInfo) bool { return true }
	}
	if o.Authorizer == nil {
		o.Authorizer = DenyAll{}
	}
	if o.Confirmer == nil {
		o.Confirmer = AutoDeny{}
	}
	if o.ConfirmPolicy == nil {
		o.ConfirmPolicy = DefaultConfirmPolicy
	}
	if o.Audit == nil {
		o.Audit = discardAudit{}
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.SessionTTL <= 0 {
		o.SessionTTL = time.Hour
	}
	if o.MaxSessions <= 0 {
		o.MaxSessions = 4096
	}
	if o.ResumeTTL <= 0 {
		o.ResumeTTL = 10 * time.Minute
	}
	if o.RetryAfter <= 0 {
		o.RetryAfter = 100 * time.Millisecond
	}
	return operationDefaults(o)
}

// operationSlots is MaxOperations, capped by the store's OperationSlots.
func operationSlots(o Options) int {
	if s, ok := o.Store.(store.OperationSlots); ok {
		return max(1, min(o.MaxOperations, s.OperationSlots()))
	}
	return o.MaxOperations
}

func operationDefaults(o Options) Options {
	if o.PollAfter <= 0 {
		o.PollAfter = 500 * time.Millisecond
	}
	if o.MaxOperations <= 0 {
		o.MaxOperations = 16
	}
	if o.Recovery == "" {
		o.Recovery = RecoverResume
	}
	if o.CancelPoll <= 0 {
		o.CancelPoll = 250 * time.Millisecond
	}
	if o.MaxFileResultBytes <= 0 {
		o.MaxFileResultBytes = DefaultMaxFileResultBytes
	}
	if o.MaxPendingTokens <= 0 {
		o.MaxPendingTokens = DefaultMaxPendingTokens
	}
	if o.PurgeEvery == 0 {
		o.PurgeEvery = DefaultPurgeEvery
	}
	if o.TombstoneTTL <= 0 {
		o.TombstoneTTL = DefaultTombstoneTTL
	}
	return o
}

func checkLimits(l Limits) (Limits, error) {
	def := func(v, min int) int {
		if v == 0 {
			return min
		}
		return v
	}
	l.MaxRequestBytes = def(l.MaxRequestBytes, MinRequestBytes)
	l.MaxInlineResultBytes = def(l.MaxInlineResultBytes, MinInlineResultBytes)
	l.MaxConcurrentRequests = def(l.MaxConcurrentRequests, MinConcurrentRequests)
	if l.IdempotencyWindowSeconds == 0 {
		l.IdempotencyWindowSeconds = MinIdempotencyWindowSecs
	}
	if l.MaxRequestBytes < MinRequestBytes || l.MaxInlineResultBytes < MinInlineResultBytes ||
		l.MaxConcurrentRequests < MinConcurrentRequests || l.IdempotencyWindowSeconds < MinIdempotencyWindowSecs {
		return l, fmt.Errorf("provider: limits %+v are below the protocol minimums", l)
	}
	return l, nil
}

func checkDescriptor(d Descriptor) error {
	if d.ID == "" || d.Name == "" {
		return errors.New("provider: descriptor needs an ID and a name")
	}
	if len(d.Versions) == 0 || !slices.Contains(d.Versions, protocol.Version2) {
		return fmt.Errorf("provider %s: versions %v must include 2", d.ID, d.Versions)
	}
	for _, v := range d.Versions {
		if v != protocol.Version1 && v != protocol.Version2 {
			return fmt.Errorf("provider %s: unknown version %d", d.ID, v)
		}
	}
	for _, c := range d.Capabilities {
		if !slices.Contains(protocol.Capabilities, protocol.Capability(c)) {
			return fmt.Errorf("provider %s: unknown capability %q", d.ID, c)
		}
	}
	if slices.Contains(d.Capabilities, protocol.CapCancellation) && !slices.Contains(d.Capabilities, protocol.CapAsyncOperations) {
		return fmt.Errorf("provider %s: cancellation needs async_operations", d.ID)
	}
	seen := map[string]bool{}
	for _, s := range d.Scopes {
		if !scopeNameRE.MatchString(s.Name) || seen[s.Name] {
			return fmt.Errorf("provider %s: bad or duplicate scope name %q", d.ID, s.Name)
		}
		seen[s.Name] = true
		if !slices.Contains(protocol.Accesses, s.Access) {
			return fmt.Errorf("provider %s: scope %s: unknown access %q", d.ID, s.Name, s.Access)
		}
		if !slices.Contains(protocol.Sensitivities, s.Sensitivity) {
			return fmt.Errorf("provider %s: scope %s: unknown sensitivity %q", d.ID, s.Name, s.Sensitivity)
		}
	}
	return nil
}

func checkAnnotations(a Annotations, caps []string) error {
	switch {
	case !slices.Contains(protocol.Effects, a.Effect):
		return fmt.Errorf("unknown effect %q", a.Effect)
	case !slices.Contains(protocol.Risks, a.Risk):
		return fmt.Errorf("unknown risk %q", a.Risk)
	case !slices.Contains(protocol.Confirmations, a.Confirmation):
		return fmt.Errorf("unknown confirmation %q", a.Confirmation)
	case !slices.Contains(protocol.Executions, a.Execution):
		return fmt.Errorf("unknown execution %q", a.Execution)
	}
	if protocol.ConfirmationReason(a.Effect, a.Risk, a.Destructive) != "" && a.Confirmation != ConfirmAlways {
		return errors.New("delete, transaction, destructive or high-risk tools need confirmation always")
	}
	if a.Execution == ExecSyncOrAsync && !slices.Contains(caps, protocol.CapAsyncOperations) {
		return errors.New("sync_or_async needs the async_operations capability")
	}
	return nil
}

func compileTool(t Tool, scopes map[string]bool, caps []string) (*tool, error) {
	if !toolNameRE.MatchString(t.Name) {
		return nil, fmt.Errorf("bad tool name %q", t.Name)
	}
	if t.Handler == nil {
		return nil, fmt.Errorf("tool %s: no handler", t.Name)
	}
	for _, s := range t.Scopes {
		if !scopes[s] {
			return nil, fmt.Errorf("tool %s: undeclared scope %q", t.Name, s)
		}
	}
	if err := checkAnnotations(t.Annotations, caps); err != nil {
		return nil, fmt.Errorf("tool %s: %w", t.Name, err)
	}
	ct := &tool{Tool: t}
	var err error
	if ct.in, err = compileSchema(t.Name, "input", t.InputSchema); err != nil {
		return nil, err
	}
	if ct.out, err = compileSchema(t.Name, "output", t.OutputSchema); err != nil {
		return nil, err
	}
	if err := checkObjectSchema(t); err != nil {
		return nil, err
	}
	ct.info = ToolInfo{Name: t.Name, Title: t.Title, Description: t.Description,
		Scopes: slices.Clone(t.Scopes), Annotations: t.Annotations}
	if ct.wire, ct.wireV1, err = toolWire(t); err != nil {
		return nil, err
	}
	ct.digest = sha256.Sum256(ct.wire)
	ct.wireSync, ct.digestSync = ct.wire, ct.digest
	if t.Annotations.Execution == ExecSyncOrAsync {
		if ct.wireSync, err = syncWire(t); err != nil {
			return nil, err
		}
		ct.digestSync = sha256.Sum256(ct.wireSync)
	}
	return ct, nil
}

func checkObjectSchema(t Tool) error {
	var s struct {
		Type any `json:"type"`
	}
	if json.Unmarshal(t.InputSchema, &s) != nil || s.Type != "object" {
		return fmt.Errorf("tool %s: input schema must have type object", t.Name)
	}
	return nil
}

func toolWire(t Tool) (v2, v1 []byte, err error) {
	in, err := compact(t.InputSchema)
	if err != nil {
		return nil, nil, fmt.Errorf("tool %s: %w", t.Name, err)
	}
	out, err := compact(t.OutputSchema)
	if err != nil {
		return nil, nil, fmt.Errorf("tool %s: %w", t.Name, err)
	}
	scopes := t.Scopes
	if scopes == nil {
		scopes = []string{}
	}
	v2, err = json.Marshal(struct {
		Name         string          `json:"name"`
		Title        string          `json:"title"`
		Description  string          `json:"description"`
		InputSchema  json.RawMessage `json:"input_schema"`
		OutputSchema json.RawMessage `json:"output_schema"`
		Scopes       []string        `json:"scopes"`
		Annotations  Annotations     `json:"annotations"`
	}{t.Name, t.Title, t.Description, in, out, scopes, t.Annotations})
	if err != nil {
		return nil, nil, fmt.Errorf("tool %s: %w", t.Name, err)
	}
	v1, err = json.Marshal(struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	}{t.Name, t.Description, in})
	return v2, v1, err
}

func compact(raw []byte) (json.RawMessage, error) {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func intersect(a, b []string) []string {
	out := []string{}
	for _, x := range a {
		if slices.Contains(b, x) && !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	sort.Strings(out)
	return out
}

// Descriptor returns the descriptor with the effective limits.
func (p *Provider) Descriptor() Descriptor {
	d := p.desc
	d.Limits = p.limits
	return d
}

// revision returns the revision of a visible tool list: the first 16 hex
// digits of the SHA-256 over the tools' wire digests in name order, the
// digests of the listed form (sync says whether sync_or_async tools are
// listed as sync).
func revision(tools []*tool, sync bool) string {
	h := sha256.New()
	for _, t := range tools {
		if sync {
			h.Write(t.digestSync[:])
		} else {
			h.Write(t.digest[:])
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// Purge deletes deduplication records and resume tokens whose window has
// passed; records are kept at least idempotency_window_seconds, as §6
// requires. On a store that keeps tombstones it first leaves one for
// every record it deletes, and deletes the tombstones older than
// Options.TombstoneTTL (see expiry.go). The Provider calls it every
// Options.PurgeEvery; an app may call it too.
func (p *Provider) Purge(ctx context.Context) (int64, error) {
	if p.opt.Store == nil {
		return 0, nil
	}
	now := p.opt.Now()
	buried, err := p.bury(ctx, now)
	if err != nil {
		return 0, err
	}
	n, err := p.opt.Store.Purge(ctx, now)
	if err != nil {
		return buried + n, fmt.Errorf("provider %s: purge: %w", p.desc.ID, err)
	}
	return buried + n, nil
}
