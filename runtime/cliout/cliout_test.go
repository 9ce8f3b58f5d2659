package cliout_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/cliout"
	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// TestReport checks the exit code and the error object of each kind of
// failure, and that a Provider's message is escaped.
func TestReport(t *testing.T) {
	cases := []struct {
		err  error
		code int
		want string
	}{
		{nil, cliout.ExitOK, ""},
		{&consumer.Error{Code: protocol.CodeConflict, Message: "busy\x1b[2J", Retryable: true, RetryAfter: time.Second,
			RequestID: "r", Details: json.RawMessage(`{"k":1}`)}, cliout.ExitProvider,
			`{"error":{"source":"provider","code":"CONFLICT","message":"busy\\u001b[2J","retryable":true,"retry_after_ms":1000,"request_id":"r","details":{"k":1}}}`},
		{protocol.NewError(protocol.CodePermissionDenied, "no"), cliout.ExitProvider,
			`{"error":{"source":"provider","code":"PERMISSION_DENIED","message":"no","retryable":false}}`},
		{cliout.Exchange("dial", errors.New("refused")), cliout.ExitTransport,
			`{"error":{"source":"cli","code":"CLI_TRANSPORT","message":"dial: refused","retryable":false}}`},
		{errors.New("bad flag"), cliout.ExitUsage,
			`{"error":{"source":"cli","code":"CLI_USAGE","message":"bad flag","retryable":false}}`},
	}
	for _, tc := range cases {
		var w bytes.Buffer
		if code := cliout.Report(&w, tc.err); code != tc.code {
			t.Errorf("%v: exit %d, want %d", tc.err, code, tc.code)
		}
		var got bytes.Buffer
		if w.Len() > 0 {
			json.Compact(&got, w.Bytes())
		}
		if got.String() != tc.want {
			t.Errorf("%v:\n got %s\nwant %s", tc.err, got.String(), tc.want)
		}
	}
}

// TestExchangeKeepsCETPErrors checks that a CETP error is not turned into
// a transport error.
func TestExchangeKeepsCETPErrors(t *testing.T) {
	ce := &consumer.Error{Code: protocol.CodeConflict}
	if err := cliout.Exchange("call", ce); err != ce {
		t.Fatalf("Exchange wrapped a CETP error: %v", err)
	}
}
