package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/store"
)

// resume is step 6. It checks a presented resume_token (bound to caller,
// provider, request ID, tool and exact args; unused; unexpired), asks for
// confirmation when the tool needs it and none was given, and returns the
// token use to commit with the attempt. A denied confirmation returns a
// use with DecisionDenied.
func (p *Provider) resume(ctx context.Context, x *execution) (*store.TokenUse, *protocol.Error) {
	need := p.needsConfirmation(ctx, x)
	var tok *store.Token
	if x.token != "" {
		t, e := p.loadToken(ctx, x)
		if e != nil {
			return nil, e
		}
		tok = &t
	}
	if tok != nil && tok.Kind == store.TokenAuth {
		use := &store.TokenUse{Hash: tok.Hash, Decision: store.DecisionApproved, Now: p.opt.Now()}
		if !need {
			x.ev.Confirmation = "not_required"
			return use, nil
		}
		if err := p.opt.Store.ConsumeToken(ctx, *use); err != nil {
			return nil, tokenError(err)
		}
		tok = nil
	}
	if tok == nil {
		if !need {
			x.ev.Confirmation = "not_required"
			return nil, nil
		}
		x.ev.Confirmation = "requested"
		return nil, p.requestConfirmation(ctx, x)
	}
	return p.decided(x, tok)
}

// needsConfirmation reports whether this call needs the user's
// confirmation: always for confirmation=always, otherwise as the
// ConfirmPolicy decides.
// The policy hook runs once per call.
func (p *Provider) needsConfirmation(ctx context.Context, x *execution) bool {
	if !x.decided {
		x.confirm = x.t.Annotations.Confirmation == ConfirmAlways || p.opt.ConfirmPolicy(ctx, x.req.caller, x.t.info, x.args)
		x.decided = true
	}
	return x.confirm
}

// decided answers a confirmation token according to the user's decision.
func (p *Provider) decided(x *execution, tok *store.Token) (*store.TokenUse, *protocol.Error) {
	use := &store.TokenUse{Hash: tok.Hash, Decision: tok.Decision, Now: p.opt.Now()}
	switch tok.Decision {
	case store.DecisionApproved:
		x.ev.Confirmation = "approved"
		return use, nil
	case store.DecisionDenied:
		x.ev.Confirmation = "denied"
		return use, nil
	}
	x.ev.Confirmation = "requested"
	e := protocol.NewError(protocol.CodeUserActionRequired, "the user has not confirmed this call yet")
	e.Resolution, e.ResumeToken = &protocol.Resolution{ID: tok.ID}, x.token
	return nil, e
}

// loadToken finds the presented token and checks its binding, use and
// expiry. Every failure is INVALID_REQUEST (§5: token misuse).
func (p *Provider) loadToken(ctx context.Context, x *execution) (store.Token, *protocol.Error) {
	t, err := p.opt.Store.TokenByHash(ctx, digest(x.token))
	switch {
	case errors.Is(err, store.ErrNotFound):
		return t, protocol.NewError(protocol.CodeInvalidRequest, "unknown resume_token")
	case err != nil:
		return t, storeError(err)
	case t.Key != x.storeKey() || t.Binding != x.argsBinding():
		return t, protocol.NewError(protocol.CodeInvalidRequest, "resume_token belongs to another call")
	case t.Used:
		return t, protocol.NewError(protocol.CodeInvalidRequest, "resume_token was already used")
	case !p.opt.Now().Before(t.ExpiresAt):
		return t, protocol.NewError(protocol.CodeInvalidRequest, "resume_token expired")
	}
	return t, nil
}

func tokenError(err error) *protocol.Error {
	if errors.Is(err, store.ErrTokenUnusable) {
		return protocol.NewError(protocol.CodeInvalidRequest, "resume_token was already used or expired")
	}
	return storeError(err)
}

// errTokenQuota reports a caller past Options.MaxPendingTokens.
var errTokenQuota = errors.New("provider: too many resume tokens for this caller")

// issueToken stores a new resume token of kind for x and returns its text
// and resolution ID; a caller past its quota gets errTokenQuota.
func (p *Provider) issueToken(ctx context.Context, kind store.TokenKind, key store.Key, b store.Binding,
	args []byte, d store.Decision) (text, id string, err error) {
	if !p.tokens.take(key.Caller, p.opt.Now(), p.opt.ResumeTTL, p.opt.MaxPendingTokens) {
		return "", "", errTokenQuota
	}
	text, err = newToken()
	if err != nil {
		return "", "", err
	}
	if id, err = newToken(); err != nil {
		return "", "", err
	}
	id = "cetp-" + string(kind) + "-" + id[:22]
	t := store.Token{Hash: digest(text), ID: id, Kind: kind, Key: key, Binding: b, Args: args,
		Decision: d, ExpiresAt: p.opt.Now().Add(p.opt.ResumeTTL)}
	if err := p.opt.Store.CreateToken(ctx, t); err != nil {
		return "", "", fmt.Errorf("provider: issue %s token: %w", kind, err)
	}
	return text, id, nil
}

// requestConfirmation issues a confirmation token and answers
// USER_ACTION_REQUIRED with its resolution (§4.3). Nothing else happens.
func (p *Provider) requestConfirmation(ctx context.Context, x *execution) *protocol.Error {
	text, id, err := p.issueToken(ctx, store.TokenConfirm, x.storeKey(), x.argsBinding(), x.args, store.DecisionPending)
	if err != nil {
		return p.tokenFailure(err)
	}
	e := protocol.NewError(protocol.CodeUserActionRequired, "the Provider needs the user's confirmation")
	e.Resolution, e.ResumeToken = &protocol.Resolution{ID: id}, text
	return e
}

// authRequired issues an authorization resume token and answers
// AUTH_REQUIRED with the Authorizer's resolution. A v1 call gets the code
// alone, since v1 has no resolution.
func (p *Provider) authRequired(ctx context.Context, x *execution, res *protocol.Resolution, details map[string]any) *protocol.Error {
	e := protocol.NewError(protocol.CodeAuthRequired, "the user must grant access first").WithDetails(details)
	if x.req.echo.Version == 0 {
		return e
	}
	text, _, err := p.issueToken(ctx, store.TokenAuth, x.storeKey(), x.argsBinding(), x.args, store.DecisionApproved)
	if err != nil {
		return p.tokenFailure(err)
	}
	e.Resolution, e.ResumeToken = res, text
	return e
}

// tokenFailure answers a token that could not be issued: RATE_LIMITED for
// a caller past its quota (retry once earlier resolutions expired or were
// used), else the store's failure.
func (p *Provider) tokenFailure(err error) *protocol.Error {
	if errors.Is(err, errTokenQuota) {
		e := protocol.NewError(protocol.CodeRateLimited, "too many pending confirmations or authorizations for this caller")
		e.RetryAfter = p.opt.ResumeTTL
		return e
	}
	return storeError(err)
}
