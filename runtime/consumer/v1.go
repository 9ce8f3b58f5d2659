package consumer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/cetpgen/cetpgen/runtime/localschema"
	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// V1Client is the read-only Consumer of a Provider whose manifest
// declares CETP v1 and not v2 (§8: "Consumer 仅在 Provider manifest 包含
// v1 且未声明 v2 时使用 v1"). v1 has no negotiation, annotations,
// resolutions, operations or request-ID deduplication, and exposes only
// read tools; this client is the Consumer side of that contract: it lists
// tools and executes them, sends each call exactly once (it never retries:
// a v1 Provider cannot deduplicate), launches nothing, and treats every
// answer as untrusted data within the same caps as the v2 client. Obtain
// it with OpenV1, which refuses a manifest that declares v2: a v2
// Provider is never used as v1, even when v2 fails.
type V1Client struct {
	t   Transport
	opt Options
}

// ErrV2Declared is returned by OpenV1 for a Provider whose manifest
// declares v2: it must be reached through New and Negotiate, and disabled
// if that fails, never downgraded.
var ErrV2Declared = errors.New("cetp: the Provider declares v2; it must not be used as v1")

// OpenV1 returns a V1Client for the Provider of manifest m, reached
// through t, when ChooseVersion(m) is 1. Options.Timeout,
// MaxResultBytes and NewRequestID apply; the others have no v1 meaning.
func OpenV1(m Manifest, t Transport, opt Options) (*V1Client, error) {
	v, err := ChooseVersion(m)
	if err != nil {
		return nil, err
	}
	if v != protocol.Version1 {
		return nil, ErrV2Declared
	}
	return &V1Client{t: t, opt: New(t, opt).opt}, nil
}

// V1ToolList is the answer of a v1 list_tools.
type V1ToolList struct {
	Tools []V1Tool `json:"tools"`
	// Rejected are the listed tools left out, with the reason.
	Rejected []RejectedTool `json:"rejected,omitempty"`
}

// V1Tool is one tool of a v1 Provider: a read tool by the v1 contract.
// Its description and parameters schema are untrusted.
type V1Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// ListTools returns the Provider's v1 tools that have a valid name and an
// object schema of bounded size, descriptions cut to MaxToolText.
func (c *V1Client) ListTools(ctx context.Context) (*V1ToolList, error) {
	data, err := c.call(ctx, protocol.MethodListTools, "", nil)
	if err != nil {
		return nil, err
	}
	var l V1ToolList
	if err := json.Unmarshal(data, &l); err != nil {
		return nil, &ResponseError{Method: protocol.MethodListTools, Reason: "v1 data: " + err.Error()}
	}
	kept := l.Tools[:0]
	for _, t := range l.Tools {
		if reason := rejectV1Tool(t); reason != "" {
			l.Rejected = append(l.Rejected, RejectedTool{Name: protocol.Truncate(t.Name, 64), Reason: reason})
			continue
		}
		t.Description = protocol.Truncate(t.Description, MaxToolText)
		kept = append(kept, t)
	}
	l.Tools = kept
	return &l, nil
}

// rejectV1Tool returns why a v1 tool is not used, or "".
func rejectV1Tool(t V1Tool) string {
	switch {
	case !toolNameRE.MatchString(t.Name):
		return "name does not match [a-z][a-z0-9_]{0,63}"
	case len(t.Parameters) > MaxToolSchema:
		return fmt.Sprintf("parameters schema is larger than %d bytes", MaxToolSchema)
	case !isObject(t.Parameters):
		return "parameters is not a JSON Schema object"
	}
	return ""
}

// ExecuteTool runs the v1 tool once with args (a JSON object) and returns
// its data, which must be JSON within MaxResultBytes. A Provider's error
// is an *Error that is never retryable; a call that got no answer is a
// *TransportError, which this client never retries: v1 does not
// deduplicate.
func (c *V1Client) ExecuteTool(ctx context.Context, tool string, args json.RawMessage) (json.RawMessage, error) {
	if !toolNameRE.MatchString(tool) || !isObject(args) {
		return nil, errors.New("cetp v1 execute_tool: the tool name is invalid or args is not a JSON object")
	}
	id, ok := RequestIDFrom(ctx)
	if !ok {
		id = c.opt.NewRequestID()
	}
	data, err := c.call(ctx, protocol.MethodExecuteTool, id, protocol.Bundle{
		protocol.KeyToolName: protocol.String(tool),
		protocol.KeyArgs:     protocol.String(args),
	})
	if err != nil {
		return nil, err
	}
	if !json.Valid(data) {
		return nil, &ResponseError{Method: protocol.MethodExecuteTool, RequestID: id, Reason: "v1 data is not JSON"}
	}
	return data, nil
}

// call sends one v1 request (no protocol_version: §4) and returns the
// data of its success answer. Every descriptor in the answer is closed.
func (c *V1Client) call(ctx context.Context, method, requestID string, extras protocol.Bundle) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, c.opt.Timeout)
	defer cancel()
	req := protocol.Bundle{}
	for k, v := range extras {
		req[k] = v
	}
	if requestID != "" {
		req[protocol.KeyRequestID] = protocol.String(requestID)
	}
	resp, err := c.t.Call(ctx, method, req)
	if err != nil {
		return nil, &TransportError{Method: method, RequestID: requestID, Err: err}
	}
	closeDescriptors(resp)
	bad := func(reason string) error { return &ResponseError{Method: method, RequestID: requestID, Reason: reason} }
	if err := resp.CheckKnownTypes(); err != nil {
		return nil, bad(err.Error())
	}
	status, _, _ := resp.String(protocol.KeyStatus)
	data, _, _ := resp.String(protocol.KeyData)
	switch {
	case len(data) > c.opt.MaxResultBytes:
		return nil, bad("data exceeds the local limit")
	case status == protocol.StatusSuccess:
		return []byte(data), nil
	case status == protocol.StatusError:
		return nil, v1Error(method, requestID, resp)
	}
	return nil, bad("unknown status " + protocol.Truncate(status, 32))
}

// v1Codes are the error codes of CETP v1.
var v1Codes = []protocol.Code{protocol.CodeAuthRequired, protocol.CodePermissionDenied, protocol.CodeToolNotFound,
	protocol.CodeInvalidArgs, protocol.CodeRateLimited, protocol.CodeInternalError}

// v1Error is the *Error of a v1 error answer: never retryable, without
// resolution; a code v1 does not define becomes INTERNAL_ERROR.
func v1Error(method, requestID string, b protocol.Bundle) error {
	code, _, _ := b.String(protocol.KeyErrorCode)
	msg, _, _ := b.String(protocol.KeyErrorMessage)
	e := &Error{Method: method, RequestID: requestID, Code: protocol.Code(code), Message: protocol.Truncate(msg, MaxErrorMessage)}
	known := false
	for _, c := range v1Codes {
		known = known || c == e.Code
	}
	if !known {
		e.UnknownCode, e.Code = protocol.Truncate(code, 64), protocol.CodeInternalError
	}
	return e
}

// isObject reports whether raw is one JSON object.
func isObject(raw []byte) bool {
	v, err := localschema.Decode(raw)
	_, ok := v.(map[string]any)
	return err == nil && ok && bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{"))
}
