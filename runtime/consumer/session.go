package consumer

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// maxTokenBytes is the longest session token §2.2 allows.
const maxTokenBytes = 256

// Limits are the limits a Provider negotiated (§2.2).
type Limits struct {
	MaxRequestBytes          int64 `json:"max_request_bytes"`
	MaxInlineResultBytes     int64 `json:"max_inline_result_bytes"`
	MaxConcurrentRequests    int64 `json:"max_concurrent_requests"`
	IdempotencyWindowSeconds int64 `json:"idempotency_window_seconds"`
}

// Session is a negotiated v2 session.
type Session struct {
	Version      int       `json:"selected_version"`
	ProviderID   string    `json:"provider_id"`
	ProviderName string    `json:"provider_name"`
	Token        string    `json:"session_token"`
	ExpiresAt    time.Time `json:"expires_at"`
	Capabilities []string  `json:"capabilities"`
	Limits       Limits    `json:"limits"`
}

// Has reports whether capability was negotiated.
func (s *Session) Has(capability string) bool { return slices.Contains(s.Capabilities, capability) }

// Negotiate opens a new v2 session (§2.2), replacing the current one. It
// offers only version 2: a Provider that declared v2 is never used as v1.
// The session is refused, and nothing more is sent, when it breaks §2.2,
// when provider_id is not an identifier of at most MaxProviderID bytes,
// or when it is not Options.ProviderID (*ProviderMismatchError);
// provider_name is cut to MaxProviderName bytes.
func (c *Client) Negotiate(ctx context.Context) (*Session, error) {
	caps, err := json.Marshal(append([]string{}, c.opt.Capabilities...))
	if err != nil {
		return nil, err
	}
	resp, err := c.t.Call(ctx, protocol.MethodNegotiate, protocol.Bundle{
		protocol.KeyConsumerVersions:     protocol.IntArray{protocol.Version2},
		protocol.KeyConsumerCapabilities: protocol.String(caps),
	})
	if err != nil {
		return nil, err
	}
	closeDescriptors(resp)
	s, err := c.decodeSession(resp)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.session = s
	c.mu.Unlock()
	return s, nil
}

// decodeSession decodes and checks a negotiate response.
func (c *Client) decodeSession(resp protocol.Bundle) (*Session, error) {
	if err := resp.CheckKnownTypes(); err != nil {
		return nil, &ResponseError{Method: protocol.MethodNegotiate, Reason: err.Error()}
	}
	data, err := c.statusData(nil, protocol.MethodNegotiate, "", resp)
	if err != nil {
		return nil, err
	}
	var s Session
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, &ResponseError{Method: protocol.MethodNegotiate, Reason: "data: " + err.Error()}
	}
	if err := c.checkSession(&s); err != nil {
		return nil, err
	}
	return &s, nil
}

// checkSession rejects a session that §2.2 forbids.
func (c *Client) checkSession(s *Session) error {
	bad := func(reason string) error { return &ResponseError{Method: protocol.MethodNegotiate, Reason: reason} }
	if reason := checkIdentifier("provider_id", s.ProviderID, MaxProviderID, providerIDRE); reason != "" {
		return bad(reason)
	}
	if c.opt.ProviderID != "" && s.ProviderID != c.opt.ProviderID {
		return &ProviderMismatchError{Want: c.opt.ProviderID, Got: s.ProviderID}
	}
	s.ProviderName = protocol.Truncate(s.ProviderName, MaxProviderName)
	switch {
	case s.Version != protocol.Version2:
		return bad("selected_version is not 2")
	case s.Token == "" || len(s.Token) > maxTokenBytes:
		return bad("session_token is empty or longer than 256 bytes")
	case s.Limits.MaxRequestBytes < protocol.MinRequestBytes || s.Limits.MaxInlineResultBytes < protocol.MinInlineResultBytes ||
		s.Limits.MaxConcurrentRequests < protocol.MinConcurrentRequests || s.Limits.IdempotencyWindowSeconds < protocol.MinIdempotencyWindowSecs:
		return bad("limits are below the protocol minimums")
	}
	for _, capability := range s.Capabilities {
		if !slices.Contains(c.opt.Capabilities, capability) {
			return bad("capability " + capability + " was not requested")
		}
	}
	return nil
}
