package consumer

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// Launcher is a Transport that can launch a resolution a Provider sent:
// the analogue of starting the Provider's PendingIntent. The Provider's own
// UI decides; Launch returns when the user has answered.
type Launcher interface {
	Launch(ctx context.Context, r *protocol.Resolution) error
}

// Launch implements Launcher for the in-process transport.
func (t InProcess) Launch(ctx context.Context, r *protocol.Resolution) error {
	return t.Provider.Launch(ctx, t.Caller, r)
}

// ErrCannotLaunch reports a resolution on a transport that cannot launch
// one.
var ErrCannotLaunch = errors.New("cetp: this transport cannot launch a Provider resolution")

// Resolve launches the resolution of e (an AUTH_REQUIRED or
// USER_ACTION_REQUIRED error) through the transport, so that the
// Provider's UI asks the user. Resume the call afterwards with
// ResumeTool and e.ResumeToken, under the same request ID.
func (c *Client) Resolve(ctx context.Context, e *Error) error {
	l, ok := c.t.(Launcher)
	if !ok {
		return ErrCannotLaunch
	}
	if e.Resolution == nil {
		return errors.New("cetp: the error carries no resolution")
	}
	return l.Launch(ctx, e.Resolution)
}

// ResumeTool retries execute_tool after a resolution: the same request
// ID and the exact args bytes of the first call, plus the resume token
// (§4.3). A denial arrives as USER_CANCELLED.
func (c *Client) ResumeTool(ctx context.Context, requestID, tool string, args json.RawMessage, resumeToken string) (json.RawMessage, error) {
	return c.execute(ctx, requestID, tool, args, resumeToken)
}

// executeResolving runs execute_tool and, when Options.LaunchResolutions
// is set and the Provider asks for a resolution, launches it once and
// resumes the call with the resume token.
func (c *Client) executeResolving(ctx context.Context, requestID, tool string, args json.RawMessage) (json.RawMessage, error) {
	v, err := c.execute(ctx, requestID, tool, args, "")
	e, ok := needsResolution(err)
	if !ok || !c.opt.LaunchResolutions {
		return v, err
	}
	if lerr := c.Resolve(ctx, e); lerr != nil {
		return nil, lerr
	}
	return c.execute(ctx, requestID, tool, args, e.ResumeToken)
}
