package consumer

import (
	"context"
	"errors"
	"time"

	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// Defaults of the retry options.
const (
	DefaultMaxRetries   = 3
	DefaultBackoff      = 100 * time.Millisecond
	DefaultMaxRetryWait = 30 * time.Second
)

// retrying sends a request until it succeeds, fails with an error that
// may not be retried, or the retries run out. Every attempt carries the
// same request ID (§4.1, §6). Two kinds of failure are retried:
//
//   - a Provider error with retryable true (§5: the only signal that
//     allows an automatic retry), no sooner than its retry_after_ms;
//   - a *TransportError while the caller's context lives: the call may
//     have run, and only a retry under the same ID (which a Provider
//     answers from its stored outcome) tells (§6).
//
// A wait is at least the current backoff, which doubles per retry. A wait
// longer than Options.MaxRetryWait, or one that would end past the
// context's deadline, is not made: the error is returned as it is, its
// RetryAfter telling the caller when it may retry (§5 "必须遵守
// retry_after_ms": never earlier).
func (c *Client) retrying(ctx context.Context, send func() (reply, error)) (reply, error) {
	backoff := c.opt.Backoff
	for attempt := 0; ; attempt++ {
		r, err := send()
		wait, ok := c.retryable(ctx, err, backoff)
		if !ok || attempt >= c.opt.MaxRetries {
			return r, err
		}
		if werr := sleep(ctx, wait); werr != nil {
			return reply{}, err
		}
		backoff *= 2
	}
}

// retryable reports whether err may be retried automatically, and after
// how long.
func (c *Client) retryable(ctx context.Context, err error, backoff time.Duration) (time.Duration, bool) {
	if err == nil {
		return 0, false
	}
	var (
		e  *Error
		te *TransportError
	)
	switch {
	case errors.As(err, &e) && e.Retryable:
		wait := max(e.RetryAfter, backoff)
		return wait, c.canWait(ctx, wait)
	case errors.As(err, &te) && ctx.Err() == nil:
		return backoff, c.canWait(ctx, backoff)
	}
	return 0, false
}

// canWait reports whether a wait of d is within Options.MaxRetryWait and
// ends before the context's deadline.
func (c *Client) canWait(ctx context.Context, d time.Duration) bool {
	if d > c.opt.MaxRetryWait {
		return false
	}
	deadline, ok := ctx.Deadline()
	return !ok || time.Now().Add(d).Before(deadline)
}

// sleep waits for d or until ctx ends, reporting the latter.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// needsResolution reports whether err asks the user to act through a
// Provider resolution (§4.3) that this client can resume.
func needsResolution(err error) (*Error, bool) {
	if err == nil {
		return nil, false
	}
	var e *Error
	if !errors.As(err, &e) || e.Resolution == nil || e.ResumeToken == "" {
		return nil, false
	}
	return e, e.Code == protocol.CodeAuthRequired || e.Code == protocol.CodeUserActionRequired
}
