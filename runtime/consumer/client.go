package consumer

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"sync"
	"time"

	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// GeneratedCodeVersion1 is referenced by every Go package cetpgen
// generates (`var _ = consumer.GeneratedCodeVersion1`). A runtime whose
// generated-code contract changes renames it, so stale generated code stops
// compiling instead of misbehaving.
const GeneratedCodeVersion1 = true

// Defaults of Options.
const (
	DefaultTimeout        = 30 * time.Second
	DefaultMaxResultBytes = 16 << 20
)

// Options configure a Client. The zero value is usable.
type Options struct {
	// Capabilities are the optional capabilities to request; nil asks for
	// all three (this client polls operations, cancels them and reads file
	// results), an empty slice for none.
	Capabilities []string
	// Timeout bounds every call: deadline_at_ms is the earlier of the
	// context's deadline and now+Timeout. It defaults to DefaultTimeout.
	Timeout time.Duration
	// MaxResultBytes bounds the data of a response, whatever the Provider
	// negotiated; it defaults to DefaultMaxResultBytes.
	MaxResultBytes int
	// Now defaults to time.Now.
	Now func() time.Time
	// NewRequestID defaults to a random version-4 UUID.
	NewRequestID func() string
	// MaxRetries bounds the automatic retries of a retryable error, each
	// under the same request ID; it defaults to DefaultMaxRetries, and a
	// negative value turns retries off.
	MaxRetries int
	// Backoff is the first wait between retries when the Provider gives no
	// longer retry_after_ms; it doubles per retry and defaults to
	// DefaultBackoff.
	Backoff time.Duration
	// LaunchResolutions lets execute_tool launch a resolution the Provider
	// sends (its own UI asks the user) through a transport that implements
	// Launcher, then resume the call once with the resume token. Off by
	// default: the *Error then carries the resolution for the caller.
	LaunchResolutions bool
	// OnProgress, when set, receives the progress of an operation that
	// Wait follows. Its text is untrusted display data.
	OnProgress func(op *Operation, p Progress)
	// ProviderID, when set, is the only provider_id this client accepts
	// from negotiate: another Provider behind the transport gets nothing
	// past the negotiation (*ProviderMismatchError). Generated CLIs set
	// it to the ID of the spec they were generated from.
	ProviderID string
	// MaxRetryWait is the longest wait before one automatic retry; it
	// defaults to DefaultMaxRetryWait. A retryable error whose
	// retry_after_ms is longer, or would end past the context's deadline,
	// is returned at once with its RetryAfter, never retried early (§5).
	MaxRetryWait time.Duration
}

// Client is a CETP v2 Consumer of one Provider. It is safe for concurrent
// use; calls share one negotiated session.
type Client struct {
	t   Transport
	opt Options
	// engineChecked is true when t hands over the results of a Provider
	// engine in this process (InProcess), which validated each one against
	// the very output schema it lists.
	engineChecked bool

	mu      sync.Mutex
	session *Session
	cache   toolCache
}

// New returns a Client that reaches its Provider through t.
func New(t Transport, opt Options) *Client {
	if opt.Capabilities == nil {
		opt.Capabilities = []string{protocol.CapAsyncOperations, protocol.CapCancellation, protocol.CapLargeResults}
	}
	if opt.Timeout <= 0 {
		opt.Timeout = DefaultTimeout
	}
	if opt.MaxResultBytes <= 0 {
		opt.MaxResultBytes = DefaultMaxResultBytes
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.NewRequestID == nil {
		opt.NewRequestID = NewRequestID
	}
	if opt.MaxRetries == 0 {
		opt.MaxRetries = DefaultMaxRetries
	}
	if opt.Backoff <= 0 {
		opt.Backoff = DefaultBackoff
	}
	if opt.MaxRetryWait <= 0 {
		opt.MaxRetryWait = DefaultMaxRetryWait
	}
	_, inProcess := t.(InProcess)
	return &Client{t: t, opt: opt, engineChecked: inProcess}
}

// Session returns the current session, or nil before Negotiate.
func (c *Client) Session() *Session {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.session
}

// ensureSession returns the current session, negotiating one if needed.
func (c *Client) ensureSession(ctx context.Context) (*Session, error) {
	if s := c.Session(); s != nil {
		return s, nil
	}
	return c.Negotiate(ctx)
}

// dropSession forgets s unless another call already replaced it.
func (c *Client) dropSession(s *Session) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.session == s {
		c.session = nil
	}
}

// envelope returns the common v2 request fields of §4.1, in a Bundle with
// room for extra more.
func (c *Client) envelope(ctx context.Context, s *Session, requestID string, extra int) protocol.Bundle {
	deadline := c.opt.Now().Add(c.opt.Timeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	b := make(protocol.Bundle, 4+extra)
	b[protocol.KeyProtocolVersion] = protocol.Int(protocol.Version2)
	b[protocol.KeySessionToken] = protocol.String(s.Token)
	b[protocol.KeyRequestID] = protocol.String(requestID)
	b[protocol.KeyDeadlineAtMs] = protocol.Long(deadline.UnixMilli())
	return b
}

// reply is the data of a success envelope and the result file that came
// with it, if any; whoever holds a reply closes its file.
type reply struct {
	data []byte
	file *os.File
}

// close closes the reply's file, if any.
func (r reply) close() {
	if r.file != nil {
		r.file.Close()
	}
}

// call sends one v2 request on the current session and returns the data
// of a success envelope; any file that came with it is closed.
func (c *Client) call(ctx context.Context, method, requestID string, extra protocol.Bundle) ([]byte, error) {
	r, err := c.callFile(ctx, method, requestID, extra)
	r.close()
	return r.data, err
}

// callFile is call that keeps the result file (result_fd) of a success
// envelope. A retryable NEGOTIATION_REQUIRED answer renegotiates once and
// resends the same request ID, as §4.1 asks of a retry; one that is not
// retryable is returned as it is (§5: retryable is the only signal that
// allows an automatic retry). A failure to negotiate is returned as an
// error of this request.
func (c *Client) callFile(ctx context.Context, method, requestID string, extra protocol.Bundle) (reply, error) {
	for attempt := 0; ; attempt++ {
		s, err := c.ensureSession(ctx)
		if err != nil {
			return reply{}, stamp(err, method, requestID)
		}
		r, err := c.send(ctx, s, method, requestID, extra)
		if err == nil {
			return r, nil
		}
		var e *Error
		if !errors.As(err, &e) || e.Code != protocol.CodeNegotiationRequired || !e.Retryable || attempt > 0 {
			return r, err
		}
		c.dropSession(s)
	}
}

// send makes one request and checks the response envelope. It keeps the
// result_fd of a success and closes every other descriptor.
func (c *Client) send(ctx context.Context, s *Session, method, requestID string, extra protocol.Bundle) (reply, error) {
	req := c.envelope(ctx, s, requestID, len(extra))
	for k, v := range extra {
		req[k] = v
	}
	resp, err := c.t.Call(ctx, method, req)
	if err != nil {
		return reply{}, &TransportError{Method: method, RequestID: requestID, Err: err}
	}
	r := reply{file: takeResultFile(resp)}
	closeDescriptors(resp)
	if r.data, err = c.successData(s, method, requestID, resp); err != nil {
		r.close()
		return reply{}, err
	}
	return r, nil
}

// takeResultFile removes result_fd from b and returns its file.
func takeResultFile(b protocol.Bundle) *os.File {
	fd, ok := b[protocol.KeyResultFD].(protocol.FileDescriptor)
	if !ok {
		return nil
	}
	delete(b, protocol.KeyResultFD)
	return fd.File
}

// closeDescriptors closes every file descriptor a response carries that
// the client does not read, so a Provider (untrusted) can never leak one
// into the Consumer's process.
func closeDescriptors(b protocol.Bundle) {
	for _, v := range b {
		if fd, ok := v.(protocol.FileDescriptor); ok && fd.File != nil {
			fd.File.Close()
		}
	}
}

// successData checks the echo and status of a v2 response on session s
// and returns its data, or the error the envelope carries.
func (c *Client) successData(s *Session, method, requestID string, b protocol.Bundle) ([]byte, error) {
	bad := func(reason string) error { return &ResponseError{Method: method, RequestID: requestID, Reason: reason} }
	if err := b.CheckKnownTypes(); err != nil {
		return nil, bad(err.Error())
	}
	if v, _, _ := b.Int(protocol.KeyProtocolVersion); v != protocol.Version2 {
		return nil, bad("protocol_version is not 2")
	}
	if id, _, _ := b.String(protocol.KeyRequestID); id != requestID {
		return nil, bad("request_id does not echo the request")
	}
	return c.statusData(s, method, requestID, b)
}

// statusData dispatches on the status of a response. An accepted answer
// is an operation only for execute_tool on a session that negotiated
// async_operations (§2.3, §4.4); anywhere else it breaks the protocol.
func (c *Client) statusData(s *Session, method, requestID string, b protocol.Bundle) ([]byte, error) {
	status, _, _ := b.String(protocol.KeyStatus)
	data, _, _ := b.String(protocol.KeyData)
	bad := func(reason string) error { return &ResponseError{Method: method, RequestID: requestID, Reason: reason} }
	if len(data) > c.opt.MaxResultBytes {
		return nil, bad("data exceeds the local limit")
	}
	switch status {
	case protocol.StatusSuccess:
		return []byte(data), nil
	case protocol.StatusAccepted:
		if method != protocol.MethodExecuteTool || s == nil || !s.Has(protocol.CapAsyncOperations) {
			return nil, bad("accepted answer on a session without async_operations")
		}
		return nil, accepted(method, requestID, data)
	case protocol.StatusError:
		return nil, fromEnvelope(method, requestID, b)
	}
	return nil, bad("unknown status " + protocol.Truncate(status, 32))
}

// accepted turns the data of an accepted envelope into an *AcceptedError.
func accepted(method, requestID, data string) error {
	var d struct {
		OperationID string `json:"operation_id"`
		PollAfterMs int64  `json:"poll_after_ms"`
	}
	if json.Unmarshal([]byte(data), &d) != nil || d.OperationID == "" {
		return &ResponseError{Method: method, RequestID: requestID, Reason: "accepted without an operation_id"}
	}
	if reason := checkIdentifier("operation_id", d.OperationID, MaxOperationID, printableIDRE); reason != "" {
		return &ResponseError{Method: method, RequestID: requestID, Reason: reason}
	}
	return &AcceptedError{RequestID: requestID, OperationID: d.OperationID,
		PollAfter: time.Duration(d.PollAfterMs) * time.Millisecond}
}

// NewRequestID returns a random version-4 UUID.
func NewRequestID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(errors.New("consumer: no randomness: " + err.Error()))
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	var out [36]byte
	hex.Encode(out[0:8], b[0:4])
	hex.Encode(out[9:13], b[4:6])
	hex.Encode(out[14:18], b[6:8])
	hex.Encode(out[19:23], b[8:10])
	hex.Encode(out[24:36], b[10:16])
	out[8], out[13], out[18], out[23] = '-', '-', '-', '-'
	return string(out[:])
}
