// Package providertest has test doubles for the hooks of package provider
// (a scripted confirmation UI and a table-driven authorizer) and a small
// in-process Consumer that builds v2 envelopes, for tests of Providers.
package providertest

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
)

// Confirmer is a scripted confirmation UI. Approve decides each request;
// a nil Approve denies. Every request is recorded.
type Confirmer struct {
	Approve func(provider.ConfirmRequest) bool

	mu       sync.Mutex
	requests []provider.ConfirmRequest
}

// Confirm implements provider.Confirmer.
func (c *Confirmer) Confirm(_ context.Context, req provider.ConfirmRequest) (bool, error) {
	c.mu.Lock()
	c.requests = append(c.requests, req)
	c.mu.Unlock()
	return c.Approve != nil && c.Approve(req), nil
}

// Requests returns the requests shown so far.
func (c *Confirmer) Requests() []provider.ConfirmRequest {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.requests)
}

// Authorizer holds scopes per caller UID. Scopes in Grantable can be
// granted through a resolution (AUTH_REQUIRED); launching it grants them.
// Others are PERMISSION_DENIED.
type Authorizer struct {
	Grantable []string

	mu   sync.Mutex
	held map[int][]string
}

// Grant gives uid the scopes.
func (a *Authorizer) Grant(uid int, scopes ...string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.held == nil {
		a.held = map[int][]string{}
	}
	a.held[uid] = append(a.held[uid], scopes...)
}

// Revoke removes every scope of uid.
func (a *Authorizer) Revoke(uid int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	delete(a.held, uid)
}

// Scopes implements provider.Authorizer.
func (a *Authorizer) Scopes(_ context.Context, c provider.Caller) ([]string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.held[c.UID]), nil
}

// Resolution implements provider.Authorizer.
func (a *Authorizer) Resolution(_ context.Context, c provider.Caller, _ provider.ToolInfo, missing []string) *protocol.Resolution {
	for _, s := range missing {
		if !slices.Contains(a.Grantable, s) {
			return nil
		}
	}
	raw, _ := json.Marshal(missing)
	return &protocol.Resolution{ID: fmt.Sprintf("grant:%d:%s", c.UID, raw)}
}

// Launch implements provider.Authorizer: it grants the scopes the
// resolution names to the launching caller.
func (a *Authorizer) Launch(_ context.Context, c provider.Caller, r *protocol.Resolution) error {
	var uid int
	var raw string
	if _, err := fmt.Sscanf(r.ID, "grant:%d:%s", &uid, &raw); err != nil || uid != c.UID {
		return protocol.NewError(protocol.CodePermissionDenied, "not a grant for this caller")
	}
	var scopes []string
	if err := json.Unmarshal([]byte(raw), &scopes); err != nil {
		return fmt.Errorf("providertest: bad grant %q: %w", r.ID, err)
	}
	a.Grant(uid, scopes...)
	return nil
}

// NewRequestID returns a random version-4 UUID.
func NewRequestID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// Client is a minimal in-process v2 Consumer for tests.
type Client struct {
	P      *provider.Provider
	Caller provider.Caller
	// Token is the session token; Negotiate sets it.
	Token string
	// Deadline is added to the current time for deadline_at_ms; it
	// defaults to one minute.
	Deadline time.Duration
	// Now defaults to time.Now; tests with a fake Provider clock set it to
	// the same clock.
	Now func() time.Time
	// Capabilities are asked for in Negotiate; nil asks for all three,
	// an empty slice for none.
	Capabilities []string
}

// Negotiate negotiates v2 with Capabilities and stores the token.
func (c *Client) Negotiate(ctx context.Context) (protocol.Bundle, error) {
	caps := c.Capabilities
	if caps == nil {
		caps = []string{protocol.CapAsyncOperations, protocol.CapCancellation, protocol.CapLargeResults}
	}
	asked, _ := json.Marshal(caps)
	b := c.P.Call(ctx, c.Caller, protocol.MethodNegotiate, protocol.Bundle{
		protocol.KeyConsumerVersions:     protocol.IntArray{2, 1},
		protocol.KeyConsumerCapabilities: protocol.String(asked),
	})
	data, _, _ := b.String(protocol.KeyData)
	var s struct {
		SessionToken string `json:"session_token"`
	}
	if err := json.Unmarshal([]byte(data), &s); err != nil || s.SessionToken == "" {
		return b, fmt.Errorf("providertest: negotiate failed: %v", b)
	}
	c.Token = s.SessionToken
	return b, nil
}

// Envelope returns the common v2 fields of §4.1 for requestID.
func (c *Client) Envelope(requestID string) protocol.Bundle {
	d := c.Deadline
	if d == 0 {
		d = time.Minute
	}
	now := time.Now
	if c.Now != nil {
		now = c.Now
	}
	return protocol.Bundle{
		protocol.KeyProtocolVersion: protocol.Int(2),
		protocol.KeySessionToken:    protocol.String(c.Token),
		protocol.KeyRequestID:       protocol.String(requestID),
		protocol.KeyDeadlineAtMs:    protocol.Long(now().Add(d).UnixMilli()),
	}
}

// Execute calls execute_tool; resumeToken may be empty.
func (c *Client) Execute(ctx context.Context, requestID, tool, args, resumeToken string) protocol.Bundle {
	b := c.Envelope(requestID)
	b[protocol.KeyToolName] = protocol.String(tool)
	b[protocol.KeyArgs] = protocol.String(args)
	if resumeToken != "" {
		b[protocol.KeyResumeToken] = protocol.String(resumeToken)
	}
	return c.P.Call(ctx, c.Caller, protocol.MethodExecuteTool, b)
}

// GetOperation calls get_operation for the operation that requestID
// created.
func (c *Client) GetOperation(ctx context.Context, requestID, operationID string) protocol.Bundle {
	b := c.Envelope(requestID)
	b[protocol.KeyOperationID] = protocol.String(operationID)
	return c.P.Call(ctx, c.Caller, protocol.MethodGetOperation, b)
}

// CancelOperation calls cancel_operation for the operation that requestID
// created.
func (c *Client) CancelOperation(ctx context.Context, requestID, operationID string) protocol.Bundle {
	b := c.Envelope(requestID)
	b[protocol.KeyOperationID] = protocol.String(operationID)
	return c.P.Call(ctx, c.Caller, protocol.MethodCancelOperation, b)
}
