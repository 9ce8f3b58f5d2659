package consumer

import (
	"context"
	"errors"
	"time"

	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// Defaults of the retry options.
const (
	DefaultMaxRetries = 3
	DefaultBackoff    = 100 * time.Millisecond
	// maxRetryWait bounds one wait, whatever retry_after_ms asks for.
	maxRetryWait = 30 * time.Second
)

// retrying sends a request until it succeeds, fails with an error that is
// not retryable, or the retries run out. Every attempt carries the same
// request ID (§4.1, §6), and waits at least the Provider's retry_after_ms
// (§5): retryable is the only signal that allows an automatic retry.
func (c *Client) retrying(ctx context.Context, send func() (reply, error)) (reply, error) {
	backoff := c.opt.Backoff
	for attempt := 0; ; attempt++ {
		r, err := send()
		var e *Error
		if err == nil || !errors.As(err, &e) || !e.Retryable || attempt >= c.opt.MaxRetries {
			return r, err
		}
		if werr := sleep(ctx, retryWait(e, backoff)); werr != nil {
			return reply{}, err
		}
		backoff *= 2
	}
}

// retryWait is how long to wait before retrying after e: its
// retry_after_ms, at least the current backoff, at most maxRetryWait.
func retryWait(e *Error, backoff time.Duration) time.Duration {
	return min(max(e.RetryAfter, backoff), maxRetryWait)
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
	var e *Error
	if !errors.As(err, &e) || e.Resolution == nil || e.ResumeToken == "" {
		return nil, false
	}
	return e, e.Code == protocol.CodeAuthRequired || e.Code == protocol.CodeUserActionRequired
}
