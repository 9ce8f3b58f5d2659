package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/json"
	"errors"
	"time"
)

// Errors of the Store interface. Implementations wrap them with context;
// test them with errors.Is.
var (
	// ErrNotFound means no live record or token exists for the key.
	ErrNotFound = errors.New("store: not found")
	// ErrBindingMismatch means a record exists for the key but was made
	// for another tool or other argument bytes.
	ErrBindingMismatch = errors.New("store: request ID bound to other content")
	// ErrTokenUnusable means a resume token was already used, has another
	// decision than required, or has expired.
	ErrTokenUnusable = errors.New("store: resume token unusable")
	// ErrNoSQL is returned by a Tx that offers no SQL (memstore).
	ErrNoSQL = errors.New("store: this store offers no SQL transaction")
)

// Key identifies a deduplication record (§6): the caller's stable identity,
// the provider ID and the request ID.
type Key struct {
	Caller    string
	Provider  string
	RequestID string
}

// Digest is a SHA-256 digest.
type Digest [sha256.Size]byte

// Binding is the content a request ID is bound to: the tool name and the
// digest of the exact args bytes.
type Binding struct {
	Tool       string
	ArgsDigest Digest
}

// NewBinding returns the binding of tool and the exact args bytes.
func NewBinding(tool string, args []byte) Binding {
	return Binding{Tool: tool, ArgsDigest: sha256.Sum256(args)}
}

// State is the state of a record. A synchronous execution writes only the
// terminal states Succeeded and Failed; an asynchronous operation starts
// Queued, may become Running, and ends Succeeded, Failed or Cancelled.
type State string

// Record states.
const (
	StateQueued    State = "queued"
	StateRunning   State = "running"
	StateSucceeded State = "succeeded"
	StateFailed    State = "failed"
	StateCancelled State = "cancelled"
)

// Terminal reports whether s is a terminal state.
func (s State) Terminal() bool {
	return s == StateSucceeded || s == StateFailed || s == StateCancelled
}

// Outcome is the stored terminal response of a request: the success data
// object, or the error fields of §5.
type Outcome struct {
	// Data is the data object of a success envelope.
	Data json.RawMessage `json:"data,omitempty"`
	// ErrorCode, ErrorMessage, Retryable and ErrorDetails describe a
	// failure; ErrorCode is empty on success.
	ErrorCode    string          `json:"error_code,omitempty"`
	ErrorMessage string          `json:"error_message,omitempty"`
	Retryable    bool            `json:"retryable,omitempty"`
	ErrorDetails json.RawMessage `json:"error_details,omitempty"`
	// RetryAfterMs is the failure's retry_after_ms, zero for none.
	RetryAfterMs int64 `json:"retry_after_ms,omitempty"`
	// File is the result value of a large result (§4.5), kept so that a
	// retry or a later get_operation can be served with a fresh file; Data
	// then holds the {"kind":"file",...} object.
	File json.RawMessage `json:"file,omitempty"`
}

// CodeCancelled is the error code of an Outcome whose operation was
// cancelled before it took effect.
const CodeCancelled = "CANCELLED"

// State returns StateSucceeded, StateFailed, or StateCancelled for an
// outcome with the error code CANCELLED.
func (o Outcome) State() State {
	switch o.ErrorCode {
	case "":
		return StateSucceeded
	case CodeCancelled:
		return StateCancelled
	}
	return StateFailed
}

// Record is a deduplication record.
type Record struct {
	Key
	Binding
	State   State
	Outcome Outcome
	// OperationID names the asynchronous operation of the request; it is
	// empty for a synchronous execution.
	OperationID string
	// Request is the engine's encoding of what an operation runs (caller,
	// arguments), stored by Accept so that a restarted Provider can run it;
	// opaque to the store, empty for a synchronous execution.
	Request   []byte
	CreatedAt time.Time
	ExpiresAt time.Time
}

// TokenKind says what a resume token resumes.
type TokenKind string

// Token kinds.
const (
	// TokenConfirm resumes a call after the user's confirmation.
	TokenConfirm TokenKind = "confirm"
	// TokenAuth resumes a call after the user granted scopes.
	TokenAuth TokenKind = "auth"
)

// Decision is the user's decision on a pending confirmation.
type Decision string

// Decisions.
const (
	DecisionPending  Decision = "pending"
	DecisionApproved Decision = "approved"
	DecisionDenied   Decision = "denied"
)

// Token is a resume token record. Only the SHA-256 of the token text is
// stored; ID names the resolution through which the user decides.
type Token struct {
	Hash    Digest
	ID      string
	Kind    TokenKind
	Key     Key
	Binding Binding
	// Args are the exact argument bytes, kept so that the Provider's
	// confirmation UI can show the concrete action (§7.2).
	Args      []byte
	Decision  Decision
	Used      bool
	ExpiresAt time.Time
}

// TokenUse asks Execute or ConsumeToken to mark a token used, atomically
// with the rest of the attempt, provided it is unused, unexpired at Now and
// carries Decision.
type TokenUse struct {
	Hash     Digest
	Decision Decision
	Now      time.Time
}

// Attempt describes one execution attempt of a deduplicated request.
type Attempt struct {
	Key     Key
	Binding Binding
	// Now is the time of the attempt; records expired at Now are replaced.
	Now time.Time
	// ExpiresAt is the end of the idempotency window of the new record.
	ExpiresAt time.Time
	// Token, when not nil, is consumed in the same transaction.
	Token *TokenUse
	// Request is stored as Record.Request by Accept; Execute ignores it.
	Request []byte
}

// Tx is the transaction a write handler receives: its own business change
// runs in it, together with the deduplication record. *sql.Tx satisfies
// it.
type Tx interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// TxFunc runs the business change of an attempt inside tx and returns the
// outcome to store. A non-nil error rolls the whole attempt back and
// stores nothing.
type TxFunc func(ctx context.Context, tx Tx) (Outcome, error)

// OperationSlots is implemented by a store whose every running operation
// holds a scarce resource (a pooled database connection): the engine runs
// at most OperationSlots operations at once, so that the rest of the pool
// stays free for other calls, cancel requests and get_operation.
type OperationSlots interface {
	OperationSlots() int
}

// Store is the durable record of a Provider. Implementations must be safe
// for concurrent use. Lookup and Get never wait for a running
// RunOperation: the engine answers retries and get_operation from them
// while an operation holds its record.
type Store interface {
	// Lookup returns the live record for key, or ErrNotFound.
	Lookup(ctx context.Context, key Key, now time.Time) (Record, error)
	// Execute runs one attempt in a single transaction: if a live record
	// for a.Key exists it returns it (ErrBindingMismatch when its binding
	// differs) with ran false; otherwise it consumes a.Token if set, runs
	// fn, stores the outcome as the terminal record and commits, with ran
	// true. Concurrent attempts on one key run fn at most once.
	Execute(ctx context.Context, a Attempt, fn TxFunc) (rec Record, ran bool, err error)
	// CreateToken stores a new, unused token.
	CreateToken(ctx context.Context, t Token) error
	// TokenByHash returns the token with the given hash, or ErrNotFound.
	TokenByHash(ctx context.Context, hash Digest) (Token, error)
	// TokenByID returns the token with the given resolution ID, or
	// ErrNotFound.
	TokenByID(ctx context.Context, id string) (Token, error)
	// Decide records the user's decision on a pending, unused, unexpired
	// token; otherwise it returns ErrTokenUnusable.
	Decide(ctx context.Context, id string, d Decision, now time.Time) error
	// ConsumeToken marks a token used outside an attempt (read tools).
	ConsumeToken(ctx context.Context, use TokenUse) error
	// Get returns the record for key whether or not it has expired (until
	// Purge removes it), or ErrNotFound.
	Get(ctx context.Context, key Key) (Record, error)
	// Accept stores a new operation for a.Key in StateQueued under
	// operation ID id, consuming a.Token in the same transaction, unless a
	// live record for a.Key exists: that one is returned with created
	// false (ErrBindingMismatch when its binding differs).
	Accept(ctx context.Context, a Attempt, id string) (rec Record, created bool, err error)
	// MarkRunning moves the queued operation of key to StateRunning and
	// commits at once; a record in any other state is left alone.
	MarkRunning(ctx context.Context, key Key) error
	// RunOperation locks the operation record of key and, if it is not
	// terminal, runs fn in the same transaction and stores fn's outcome as
	// its terminal state with the given expiry; ran is true then. A
	// terminal record is returned unchanged with ran false. Concurrent
	// calls on one key, in this process or another sharing the database,
	// run fn at most once. A non-nil error of fn rolls back and leaves the
	// record as it was.
	RunOperation(ctx context.Context, key Key, expiresAt time.Time, fn TxFunc) (rec Record, ran bool, err error)
	// FinishOperation stores out as the terminal outcome of the
	// non-terminal operation of key without running anything (done true);
	// a terminal record is returned unchanged with done false.
	FinishOperation(ctx context.Context, key Key, expiresAt time.Time, out Outcome) (rec Record, done bool, err error)
	// RequestCancel records that cancellation of the operation of key was
	// asked for. It must not wait for a running operation's transaction.
	RequestCancel(ctx context.Context, key Key) error
	// CancelRequested reports whether RequestCancel was called for key.
	CancelRequested(ctx context.Context, key Key) (bool, error)
	// SetProgress records the latest progress (a JSON object) of the
	// running operation of key, for get_operation on any process. Like
	// RequestCancel it must not wait for the operation's transaction.
	SetProgress(ctx context.Context, key Key, progress []byte) error
	// Progress returns the latest progress recorded for key, or nil.
	Progress(ctx context.Context, key Key) ([]byte, error)
	// PendingOperations returns the non-terminal operations of provider,
	// oldest first, for recovery when a Provider starts.
	PendingOperations(ctx context.Context, provider string) ([]Record, error)
	// Purge deletes terminal records, cancellation requests, progress and
	// tokens expired at now and returns how many rows it removed. Operations that
	// are not terminal are kept whatever their expiry.
	Purge(ctx context.Context, now time.Time) (int64, error)
	// Close releases the store.
	Close() error
}
