package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

func sample() Bundle {
	return Bundle{
		KeyProtocolVersion:  Int(2),
		KeyDeadlineAtMs:     Long(-1 << 40),
		KeyRequestID:        String("6f1c2c1e-1e7a-4c1e-9d5e-0b0f5f9d2a11"),
		KeyConsumerVersions: IntArray{2, 1, -7},
		KeyRetryable:        Boolean(true),
		KeyResolution:       &Resolution{ID: "cetp-confirm-1"},
		"x_unknown":         String("日本語"),
	}
}

func TestBundleRoundTrip(t *testing.T) {
	raw, err := MarshalBundle(sample())
	if err != nil {
		t.Fatal(err)
	}
	got, err := UnmarshalBundle(raw)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, sample()) {
		t.Fatalf("round trip changed the bundle:\n%v\n%v", got, sample())
	}
	again, _ := MarshalBundle(got)
	if !bytes.Equal(raw, again) {
		t.Fatal("encoding is not deterministic")
	}
}

func TestUnmarshalRejects(t *testing.T) {
	good, _ := MarshalBundle(Bundle{"a": Boolean(true)})
	cases := map[string][]byte{
		"empty":          nil,
		"truncated":      good[:len(good)-1],
		"trailing":       append(append([]byte{}, good...), 0),
		"bad boolean":    {1, 1, 'a', byte(KindBoolean), 2},
		"unknown kind":   {1, 1, 'a', 99},
		"fd in band":     {1, 1, 'a', byte(KindFileDescriptor)},
		"duplicate key":  {2, 1, 'a', byte(KindBoolean), 0, 1, 'a', byte(KindBoolean), 1},
		"too many":       {0xff, 0xff, 0x03},
		"huge string":    {1, 1, 'a', byte(KindString), 0xff, 0xff, 0xff, 0xff, 0x0f},
		"huge int array": {1, 1, 'a', byte(KindIntArray), 0xff, 0xff, 0x03},
		"long key":       append([]byte{1, 0x81, 0x02}, bytes.Repeat([]byte{'k'}, 257)...),
	}
	for name, raw := range cases {
		if b, err := UnmarshalBundle(raw); err == nil {
			t.Errorf("%s: decoded %v", name, b)
		}
	}
	if _, err := MarshalBundle(Bundle{"fd": FileDescriptor{File: os.Stdin}}); !errors.Is(err, ErrFileDescriptor) {
		t.Errorf("file descriptor encoded in band: %v", err)
	}
}

func TestTypedAccessors(t *testing.T) {
	b := sample()
	if v, ok, err := b.Int(KeyProtocolVersion); v != 2 || !ok || err != nil {
		t.Fatalf("Int = %v %v %v", v, ok, err)
	}
	if _, ok, err := b.Long(KeyProtocolVersion); !ok || err == nil {
		t.Fatal("Long accepted an Int")
	}
	var te *TypeError
	if _, _, err := b.String(KeyDeadlineAtMs); !errors.As(err, &te) || te.Want != KindString || te.Got != KindLong {
		t.Fatalf("TypeError = %v", err)
	}
	if _, ok, err := b.String("absent"); ok || err != nil {
		t.Fatal("absent key reported present")
	}
	if err := b.CheckKnownTypes(); err != nil {
		t.Fatalf("CheckKnownTypes on a well-typed bundle: %v", err)
	}
	b[KeyArgs] = Int(1)
	if err := b.CheckKnownTypes(); !errors.As(err, &te) || te.Key != KeyArgs {
		t.Fatalf("CheckKnownTypes missed a mistyped args: %v", err)
	}
}

// TestErrorTable pins the retryable column of §5.
func TestErrorTable(t *testing.T) {
	want := map[Code]Retry{
		"UNSUPPORTED_VERSION": RetryNo, "UNSUPPORTED_CAPABILITY": RetryNo, "NEGOTIATION_REQUIRED": RetryYes,
		"AUTH_REQUIRED": RetryConditional, "USER_ACTION_REQUIRED": RetryConditional, "USER_CANCELLED": RetryNo,
		"PERMISSION_DENIED": RetryNo, "TOOL_NOT_FOUND": RetryNo, "METHOD_NOT_FOUND": RetryNo, "INVALID_ARGS": RetryNo,
		"INVALID_REQUEST": RetryNo, "CONFLICT": RetryConditional, "RATE_LIMITED": RetryYes,
		"DEADLINE_EXCEEDED": RetryConditional, "CANCELLED": RetryNo, "RESULT_TOO_LARGE": RetryNo,
		"RESULT_EXPIRED": RetryNo, "UNAVAILABLE": RetryYes, "INTERNAL_ERROR": RetryConditional,
	}
	if !reflect.DeepEqual(ErrorTable, want) {
		t.Fatalf("ErrorTable differs from §5:\n%v", ErrorTable)
	}
	if !NewError(CodeRateLimited, "x").Retryable || NewError(CodeConflict, "x").Retryable {
		t.Fatal("NewError does not follow the table")
	}
	if NewError(CodeInvalidArgs, "x").WithRetryable(true).Retryable {
		t.Fatal("WithRetryable changed a code the table fixes")
	}
	if !NewError(CodeConflict, "x").WithRetryable(true).Retryable {
		t.Fatal("WithRetryable ignored a conditional code")
	}
}

func TestErrorEnvelope(t *testing.T) {
	e := NewError(CodeRateLimited, "%s", strings.Repeat("é", 2000))
	e.RetryAfter = 1500 * time.Millisecond
	e.WithDetails(map[string]int{"n": 1})
	b := ErrorBundle(Echo{Version: 2, RequestID: "r"}, e)
	msg, _, _ := b.String(KeyErrorMessage)
	if len(msg) > MaxErrorMessageBytes || !strings.HasPrefix(msg, "é") || !json.Valid([]byte(`"`+msg+`"`)) {
		t.Fatalf("message not bounded on a rune boundary: %d bytes", len(msg))
	}
	back, err := ParseError(b)
	if err != nil || back.Code != CodeRateLimited || !back.Retryable || back.RetryAfter != 1500*time.Millisecond ||
		string(back.Details) != `{"n":1}` {
		t.Fatalf("ParseError = %+v, %v", back, err)
	}
	if v, _, _ := b.Int(KeyProtocolVersion); v != 2 {
		t.Fatal("protocol_version not echoed")
	}
	huge := NewError(CodeInvalidArgs, "x").WithDetails(strings.Repeat("x", MaxErrorDetailsBytes))
	if huge.Details != nil {
		t.Fatal("oversized details kept")
	}
	notObject := &Error{Code: CodeInvalidArgs, Message: "x", Details: json.RawMessage(`[1]`)}
	if ErrorBundle(Echo{}, notObject).Has(KeyErrorDetails) {
		t.Fatal("non-object details emitted")
	}
}

func TestSuccessAndAccepted(t *testing.T) {
	b := Success(Echo{Version: 2, RequestID: "r"}, InlineData(json.RawMessage(`{"a":1}`)))
	if d, _, _ := b.String(KeyData); d != `{"kind":"inline","value":{"a":1}}` {
		t.Fatalf("data = %s", d)
	}
	a := Accepted(Echo{Version: 2, RequestID: "r"}, "op_123", 1000)
	if s, _, _ := a.String(KeyStatus); s != StatusAccepted {
		t.Fatal("accepted status")
	}
	if d, _, _ := a.String(KeyData); d != `{"operation_id":"op_123","poll_after_ms":1000}` {
		t.Fatalf("accepted data = %s", d)
	}
	if V1Error(CodeToolNotFound, "x").Has(KeyProtocolVersion) || V1Error(CodeToolNotFound, "x").Has(KeyRetryable) {
		t.Fatal("v1 error carries v2 fields")
	}
}
