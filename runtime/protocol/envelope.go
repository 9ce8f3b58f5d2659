package protocol

import (
	"encoding/json"
	"fmt"
)

// Echo holds the request fields a v2 response echoes: protocol_version and
// request_id. A zero Version omits protocol_version (v1); an empty
// RequestID omits request_id.
type Echo struct {
	Version   int32
	RequestID string
}

func (e Echo) put(b Bundle) {
	if e.Version != 0 {
		b[KeyProtocolVersion] = Int(e.Version)
	}
	if e.RequestID != "" {
		b[KeyRequestID] = String(e.RequestID)
	}
}

// Success returns the success envelope of §4.2 with data, the JSON text of
// the data object.
func Success(echo Echo, data []byte) Bundle {
	b := Bundle{KeyStatus: String(StatusSuccess), KeyData: String(data)}
	echo.put(b)
	return b
}

// InlineSuccess returns Success(echo, InlineData(value)), the envelope of
// a synchronous result sent inline, with its data text built in one
// allocation.
func InlineSuccess(echo Echo, value json.RawMessage) Bundle {
	b := make(Bundle, 4)
	b[KeyStatus] = String(StatusSuccess)
	b[KeyData] = String(`{"kind":"inline","value":` + string(value) + `}`)
	echo.put(b)
	return b
}

// InlineData returns the data object {"kind":"inline","value":value} of a
// synchronous tool result (§4.2). value must be valid JSON.
func InlineData(value json.RawMessage) []byte {
	out := make([]byte, 0, len(value)+26)
	out = append(out, `{"kind":"inline","value":`...)
	out = append(out, value...)
	return append(out, '}')
}

// Accepted returns the accepted envelope of §4.4.
func Accepted(echo Echo, operationID string, pollAfterMs int64) Bundle {
	data, _ := json.Marshal(struct {
		OperationID string `json:"operation_id"`
		PollAfterMs int64  `json:"poll_after_ms"`
	}{operationID, pollAfterMs})
	b := Bundle{KeyStatus: String(StatusAccepted), KeyData: String(data)}
	echo.put(b)
	return b
}

// ErrorBundle returns the error envelope of §5 for e. The message and
// details are bounded; details that are not a JSON object are dropped.
func ErrorBundle(echo Echo, e *Error) Bundle {
	b := Bundle{
		KeyStatus:       String(StatusError),
		KeyErrorCode:    String(e.Code),
		KeyErrorMessage: String(Truncate(e.Message, MaxErrorMessageBytes)),
		KeyRetryable:    Boolean(e.Retryable),
	}
	echo.put(b)
	if e.RetryAfter > 0 {
		b[KeyRetryAfterMs] = Long(e.RetryAfter.Milliseconds())
	}
	if d := e.Details; len(d) > 0 && len(d) <= MaxErrorDetailsBytes && isJSONObject(d) {
		b[KeyErrorDetails] = String(d)
	}
	if e.Resolution != nil {
		b[KeyResolution] = e.Resolution
	}
	if e.ResumeToken != "" {
		b[KeyResumeToken] = String(e.ResumeToken)
	}
	if e.Hint != "" {
		b[KeyResolutionHint] = String(Truncate(e.Hint, MaxErrorMessageBytes))
	}
	return b
}

// V1Error returns the v1 error bundle (SDK reference §3): status, code and
// message only, with no protocol_version, retryable or request_id.
func V1Error(code Code, message string) Bundle {
	return Bundle{
		KeyStatus:       String(StatusError),
		KeyErrorCode:    String(code),
		KeyErrorMessage: String(Truncate(message, MaxErrorMessageBytes)),
	}
}

// V1Success returns the v1 success bundle: status and data only.
func V1Success(data []byte) Bundle {
	return Bundle{KeyStatus: String(StatusSuccess), KeyData: String(data)}
}

// ParseError reads the error fields of an error envelope back into an
// Error, for Consumers and tests. It returns an error when b is not an
// error envelope or a field has the wrong type.
func ParseError(b Bundle) (*Error, error) {
	status, _, err := b.String(KeyStatus)
	if err != nil || status != StatusError {
		return nil, fmt.Errorf("not an error envelope (status %q)", status)
	}
	if err := b.CheckKnownTypes(); err != nil {
		return nil, fmt.Errorf("error envelope: %w", err)
	}
	code, _, _ := b.String(KeyErrorCode)
	msg, _, _ := b.String(KeyErrorMessage)
	retry, _, _ := b.Boolean(KeyRetryable)
	e := &Error{Code: Code(code), Message: msg, Retryable: retry}
	if ms, ok, _ := b.Long(KeyRetryAfterMs); ok {
		e.RetryAfter = msDuration(ms)
	}
	if d, ok, _ := b.String(KeyErrorDetails); ok {
		e.Details = json.RawMessage(d)
	}
	e.Resolution, _, _ = b.Resolution(KeyResolution)
	e.ResumeToken, _, _ = b.String(KeyResumeToken)
	e.Hint, _, _ = b.String(KeyResolutionHint)
	return e, nil
}

func isJSONObject(d []byte) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(d, &m) == nil && m != nil
}
