package consumer

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"

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
	// MaxProviderName caps provider_name, which is cut; MaxProviderID and
	// MaxRevision bound provider_id and revision, identifiers that are
	// refused rather than cut when longer or not of their form.
	MaxProviderName = 200
	MaxProviderID   = 255
	MaxRevision     = 128
	// MaxOperationID and MaxResolutionID bound the identifiers of an
	// operation and a resolution.
	MaxOperationID  = 128
	MaxResolutionID = 256
)

var (
	toolNameRE  = regexp.MustCompile(`^[a-z][a-z0-9_]{0,63}$`)
	scopeNameRE = regexp.MustCompile(`^[a-z][a-z0-9_.-]{0,127}$`)
	// providerIDRE is an Android package name or a name under one (§3.1).
	providerIDRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$`)
	// printableIDRE is an opaque identifier of printable ASCII without
	// spaces: a revision, an operation ID, a resolution ID.
	printableIDRE = regexp.MustCompile(`^[!-~]+$`)
)

// checkIdentifier reports why id is not an identifier of at most max
// bytes matching re, or "".
func checkIdentifier(what, id string, max int, re *regexp.Regexp) string {
	switch {
	case id == "":
		return what + " is empty"
	case len(id) > max:
		return fmt.Sprintf("%s is longer than %d bytes", what, max)
	case !re.MatchString(id):
		return what + " has characters outside its form"
	}
	return ""
}

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
	if len(e.ResumeToken) > MaxResumeToken || (e.Resolution != nil && len(e.Resolution.ID) > MaxResolutionID) {
		e.ResumeToken, e.Resolution = "", nil
	}
	return e
}

// capTools keeps the tools that are well-formed, within the caps and
// state every safety annotation with a known value, with their texts cut,
// and records every other one with the reason it was left out. A session
// without async_operations must not list sync_or_async tools (§3.4).
func capTools(l *ToolList, async bool) {
	kept := l.Tools[:0]
	for _, t := range l.Tools {
		reason := rejectTool(t, async)
		if reason == "" && len(kept) >= MaxToolsListed {
			reason = fmt.Sprintf("more than %d tools listed", MaxToolsListed)
		}
		if reason != "" {
			l.Rejected = append(l.Rejected, RejectedTool{Name: protocol.Truncate(t.Name, 64), Reason: reason})
			continue
		}
		t.Title = protocol.Truncate(t.Title, MaxToolTitle)
		t.Description = protocol.Truncate(t.Description, MaxToolText)
		kept = append(kept, t)
	}
	l.Tools = kept
	l.Dropped = len(l.Rejected)
}

// rejectTool returns why a listed tool is not used, or "".
func rejectTool(t Tool, async bool) string {
	if !toolNameRE.MatchString(t.Name) {
		return "name does not match [a-z][a-z0-9_]{0,63}"
	}
	if len(t.Scopes) > MaxScopesPerTool {
		return fmt.Sprintf("more than %d scopes", MaxScopesPerTool)
	}
	if len(t.InputSchema) > MaxToolSchema || len(t.OutputSchema) > MaxToolSchema {
		return fmt.Sprintf("a schema is larger than %d bytes", MaxToolSchema)
	}
	if len(t.InputSchema) == 0 || string(t.InputSchema) == "null" {
		return "input_schema is missing"
	}
	for _, s := range t.Scopes {
		if len(s) > maxScopeNameBytes || !scopeNameRE.MatchString(s) {
			return "a scope name does not match [a-z][a-z0-9_.-]{0,127}"
		}
	}
	return rejectAnnotations(t.Annotations, async)
}

// rejectAnnotations returns why a tool's annotations cannot be trusted
// (§3.2: a missing required field or an unknown safety value is never
// ignored), or "". Unknown extra annotations are ignored, as §3.2 asks.
func rejectAnnotations(a map[string]any, async bool) string {
	for _, v := range protocol.AnnotationVocabularies() {
		s, ok := a[v.Field].(string)
		switch {
		case a[v.Field] == nil:
			return "annotation " + v.Field + " is missing"
		case !ok || !slices.Contains(v.Values, s):
			return "annotation " + v.Field + " has an unknown value"
		}
	}
	for _, k := range protocol.AnnotationFlags {
		if _, ok := a[k].(bool); !ok {
			return "annotation " + k + " is missing or not a boolean"
		}
	}
	effect, risk := protocol.Effect(a["effect"].(string)), protocol.Risk(a["risk"].(string))
	switch {
	case protocol.ConfirmationReason(effect, risk, a["destructive"] == true) != "" && a["confirmation"] != string(protocol.ConfirmAlways):
		return "a delete, transaction, destructive or high-risk tool without confirmation always"
	case !async && a["execution"] == string(protocol.ExecSyncOrAsync):
		return "execution sync_or_async on a session without async_operations"
	}
	return ""
}
