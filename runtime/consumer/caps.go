package consumer

import (
	"encoding/json"
	"regexp"

	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// Caps on what a Provider sends, which this client treats as untrusted
// data (§4.2, §7.3): texts are cut, oversized parts dropped.
const (
	MaxErrorMessage   = 1024
	MaxErrorDetails   = 16 << 10
	MaxResumeToken    = 256
	MaxToolTitle      = 200
	MaxToolText       = 4000
	MaxToolSchema     = 256 << 10
	MaxToolsListed    = 4096
	MaxScopesPerTool  = 64
	maxScopeNameBytes = 128
)

var (
	toolNameRE  = regexp.MustCompile(`^[a-z][a-z0-9_]{0,63}$`)
	scopeNameRE = regexp.MustCompile(`^[a-z][a-z0-9_.-]{0,127}$`)
)

// capError cuts the untrusted parts of a Provider's error. A code that §5
// does not define becomes a non-retryable INTERNAL_ERROR.
func capError(e *Error) *Error {
	if !e.Code.Known() {
		e.UnknownCode = protocol.Truncate(string(e.Code), 64)
		e.Code, e.Retryable, e.RetryAfter = protocol.CodeInternalError, false, 0
	}
	e.Message = protocol.Truncate(e.Message, MaxErrorMessage)
	if len(e.Details) > MaxErrorDetails || (e.Details != nil && !json.Valid(e.Details)) {
		e.Details = nil
	}
	if len(e.ResumeToken) > MaxResumeToken {
		e.ResumeToken, e.Resolution = "", nil
	}
	return e
}

// capTools keeps the tools that are well-formed and within the caps, with
// their texts cut, and reports how many were dropped.
func capTools(l *ToolList) int {
	kept := l.Tools[:0]
	for _, t := range l.Tools {
		if len(kept) < MaxToolsListed && wellFormed(t) {
			t.Title = protocol.Truncate(t.Title, MaxToolTitle)
			t.Description = protocol.Truncate(t.Description, MaxToolText)
			kept = append(kept, t)
		}
	}
	dropped := len(l.Tools) - len(kept)
	l.Tools = kept
	return dropped
}

// wellFormed reports whether a listed tool has a valid name and scopes and
// schemas of bounded size.
func wellFormed(t Tool) bool {
	if !toolNameRE.MatchString(t.Name) || len(t.Scopes) > MaxScopesPerTool {
		return false
	}
	if len(t.InputSchema) > MaxToolSchema || len(t.OutputSchema) > MaxToolSchema {
		return false
	}
	for _, s := range t.Scopes {
		if len(s) > maxScopeNameBytes || !scopeNameRE.MatchString(s) {
			return false
		}
	}
	return true
}
