package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/cetpgen/cetpgen/internal/syncbuf"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/binding/unixsock"
	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
)

var readOnly = provider.Annotations{Effect: provider.EffectRead, Risk: provider.RiskLow, Idempotent: true,
	Confirmation: provider.ConfirmNever, Execution: provider.ExecSync}

const countOutput = `{"type":"object","properties":{"count":{"type":"integer"},"items":{"type":"array","items":{"type":"string"}}},"required":["count"]}`

// testTools are tools whose handlers make the mistakes a Provider author
// makes.
func testTools() []provider.Tool {
	in := json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)
	tool := func(name string, scopes []string, h provider.Handler) provider.Tool {
		return provider.Tool{Name: name, Title: name, Description: "test tool " + name, InputSchema: in,
			OutputSchema: json.RawMessage(countOutput), Scopes: scopes, Annotations: readOnly, Handler: h}
	}
	return []provider.Tool{
		tool("count", nil, func(context.Context, *provider.Call, json.RawMessage) (json.RawMessage, error) {
			return json.RawMessage(`{"count":1}`), nil
		}),
		tool("bad_output", nil, func(context.Context, *provider.Call, json.RawMessage) (json.RawMessage, error) {
			return json.RawMessage(`{"count":2,"items":["a",3]}`), nil
		}),
		tool("odd_code", nil, func(context.Context, *provider.Call, json.RawMessage) (json.RawMessage, error) {
			return nil, protocol.NewError("NOT_FOUND_AT_ALL", "no such note")
		}),
		tool("broken", nil, func(context.Context, *provider.Call, json.RawMessage) (json.RawMessage, error) {
			return nil, fmt.Errorf("query notes: %w", errors.New("database is locked"))
		}),
		tool("conflict", nil, func(context.Context, *provider.Call, json.RawMessage) (json.RawMessage, error) {
			return nil, protocol.NewError(protocol.CodeConflict, "the note changed")
		}),
		tool("panics", nil, func(context.Context, *provider.Call, json.RawMessage) (json.RawMessage, error) {
			panic("nil map")
		}),
		tool("secret", []string{"notes.read"}, func(context.Context, *provider.Call, json.RawMessage) (json.RawMessage, error) {
			return json.RawMessage(`{"count":0}`), nil
		}),
	}
}

var testDescriptor = provider.Descriptor{ID: "com.example.notes", Name: "Notes", Description: "notes", Versions: []int{2},
	Scopes: []provider.Scope{{Name: "notes.read", Title: "read notes", Description: "read notes", Access: provider.AccessRead,
		Sensitivity: provider.SensitivityPersonal}}}

// running is a server started by start.
type running struct {
	socket string
	log    *syncbuf.Buffer
	client *consumer.Client
	cancel context.CancelFunc
	code   chan int
}

// start serves the test tools with args (plus a socket and database in a
// temporary directory) and connects a Consumer; identify, when set, maps
// the test's own peer credentials to the caller the server sees.
func start(t *testing.T, s Server, args ...string) *running {
	t.Helper()
	dir := t.TempDir()
	r := &running{socket: filepath.Join(dir, "s.sock"), log: &syncbuf.Buffer{}, code: make(chan int, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	args = append([]string{"--socket", r.socket, "--db", filepath.Join(dir, "s.db")}, args...)
	go func() {
		r.code <- Run(ctx, s, args, Stdio{In: strings.NewReader(""), Out: &syncbuf.Buffer{}, Err: r.log})
	}()
	t.Cleanup(func() { r.stop(t) })
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(r.log.String(), "serving"); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the server did not start:\n%s", r.log)
		}
	}
	tr, err := unixsock.Dial(r.socket)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	r.client = consumer.New(tr, consumer.Options{})
	return r
}

// stop ends the server and checks its graceful stop.
func (r *running) stop(t *testing.T) {
	r.cancel()
	select {
	case code := <-r.code:
		if code != ExitOK {
			t.Errorf("exit %d after a stop\n%s", code, r.log)
		}
		r.code <- code
	case <-time.After(15 * time.Second):
		t.Fatal("the server did not stop")
	}
	if _, err := os.Stat(r.socket); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the socket is left behind: %v", err)
	}
}

func testServer() Server {
	return Server{Name: "notesd", Descriptor: testDescriptor,
		Tools: func(Env) ([]provider.Tool, error) { return testTools(), nil }}
}

// logLine returns the decoded JSON log record whose tool is tool.
func logLine(t *testing.T, log, tool string) map[string]any {
	t.Helper()
	for _, line := range strings.Split(log, "\n") {
		var rec map[string]any
		if json.Unmarshal([]byte(line), &rec) == nil && rec["tool"] == tool {
			return rec
		}
	}
	t.Fatalf("no log record for %s:\n%s", tool, log)
	return nil
}

func call(t *testing.T, r *running, tool, args string) *consumer.Error {
	t.Helper()
	_, err := r.client.ExecuteTool(context.Background(), tool, json.RawMessage(args))
	var ce *consumer.Error
	if err != nil && !errors.As(err, &ce) {
		t.Fatalf("%s: %v", tool, err)
	}
	return ce
}

// TestLogsWhatTheAuthorNeeds calls each faulty handler and checks that the
// Consumer sees the protocol's answer while the log names the cause.
func TestLogsWhatTheAuthorNeeds(t *testing.T) {
	r := start(t, testServer(), "--log-format", "json")
	const secret = "SECRET-ARGUMENT-VALUE"
	if e := call(t, r, "count", `{"text":"`+secret+`"}`); e != nil {
		t.Fatalf("count: %v", e)
	}
	for tool, code := range map[string]protocol.Code{"bad_output": protocol.CodeInternalError, "odd_code": protocol.CodeInternalError,
		"broken": protocol.CodeInternalError, "conflict": protocol.CodeConflict, "panics": protocol.CodeInternalError} {
		if e := call(t, r, tool, `{"text":"`+secret+`"}`); e == nil || e.Code != code {
			t.Errorf("%s: %v, want %s", tool, e, code)
		}
	}
	log := r.log.String()
	if strings.Contains(log, secret) {
		t.Errorf("an argument value reached the log:\n%s", log)
	}
	for tool, want := range map[string]map[string]any{
		"count":      {"status": "success", "level": "INFO", "uid": float64(os.Getuid())},
		"bad_output": {"code": "INTERNAL_ERROR", "level": "ERROR", "output_pointer": "/items/1", "schema_pointer": "/properties/items/items/type"},
		"odd_code":   {"code": "INTERNAL_ERROR", "unknown_code": "NOT_FOUND_AT_ALL", "handler_error": "NOT_FOUND_AT_ALL: no such note"},
		"broken":     {"code": "INTERNAL_ERROR", "handler_error": "query notes: database is locked", "msg": "handler error became INTERNAL_ERROR"},
		"conflict":   {"code": "CONFLICT", "level": "INFO", "handler_error": "CONFLICT: the note changed"},
		"panics":     {"code": "INTERNAL_ERROR", "handler_error": "panic: nil map"},
	} {
		rec := logLine(t, log, tool)
		for k, v := range want {
			if fmt.Sprint(rec[k]) != fmt.Sprint(v) {
				t.Errorf("%s: %s = %v, want %v\n%v", tool, k, rec[k], v, rec)
			}
		}
		if _, ok := rec["request_id"].(string); !ok {
			t.Errorf("%s: no request_id: %v", tool, rec)
		}
	}
}

// TestDeniedScopesLogTheHint serves a caller of another UID (the test maps
// its own peer to uid+1), which the default Authorizer does not know.
func TestDeniedScopesLogTheHint(t *testing.T) {
	s := testServer()
	s.Unix.Identify = func(p unixsock.Peer) (provider.Caller, error) { return provider.Caller{UID: p.UID + 1}, nil }
	r := start(t, s)
	if e := call(t, r, "secret", `{}`); e == nil || e.Code != protocol.CodePermissionDenied {
		t.Fatalf("secret: %v, want PERMISSION_DENIED", e)
	}
	log := r.log.String()
	other := os.Getuid() + 1
	for _, want := range []string{"call denied: the caller lacks scopes", "tool=secret", fmt.Sprintf("uid=%d", other),
		"missing_scopes=[notes.read]", fmt.Sprintf("uid %d holds every scope", os.Getuid()),
		fmt.Sprintf(`{uid: %d, scopes: [\"notes.read\"]}`, other), "--socket-mode"} {
		if !strings.Contains(log, want) {
			t.Errorf("the log lacks %q:\n%s", want, log)
		}
	}
}

// TestGrantsFileLetsAnotherUIDIn grants the mapped UID the scope in a
// grants file, then removes the grant while the server runs.
func TestGrantsFileLetsAnotherUIDIn(t *testing.T) {
	grants := filepath.Join(t.TempDir(), "grants.yaml")
	other := os.Getuid() + 1
	os.WriteFile(grants, fmt.Appendf(nil, "grants:\n  - {uid: %d, scopes: [notes.read]}\n", other), 0o600)
	s := testServer()
	s.Unix.Identify = func(p unixsock.Peer) (provider.Caller, error) { return provider.Caller{UID: p.UID + 1}, nil }
	r := start(t, s, "--grants", grants)
	if e := call(t, r, "secret", `{}`); e != nil {
		t.Fatalf("a granted call: %v\n%s", e, r.log)
	}
	os.WriteFile(grants+".new", []byte("grants: []\n"), 0o600)
	os.Rename(grants+".new", grants)
	if e := call(t, r, "secret", `{}`); e == nil || e.Code != protocol.CodePermissionDenied {
		t.Fatalf("after the revocation: %v", e)
	}
	os.WriteFile(grants+".new", []byte("grants: [\n"), 0o600)
	os.Rename(grants+".new", grants)
	if e := call(t, r, "secret", `{}`); e == nil || e.Code != protocol.CodeUnavailable {
		t.Fatalf("with a broken grants file: %v", e)
	}
	if !strings.Contains(r.log.String(), "the Authorizer failed") {
		t.Errorf("the broken grants file is not logged:\n%s", r.log)
	}
}

func TestUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--help"}, ExitOK, "-socket-mode"},
		{[]string{"--bogus"}, ExitUsage, "flag provided but not defined"},
		{[]string{"extra"}, ExitUsage, `unexpected argument "extra"`},
		{[]string{"--socket-mode", "0999"}, ExitUsage, "octal mode"},
		{[]string{"--socket-mode", "0066"}, ExitUsage, "0600"},
		{[]string{"--log-format", "xml"}, ExitUsage, "text or json"},
	} {
		var errb syncbuf.Buffer
		if got := Run(context.Background(), testServer(), c.args, Stdio{Err: &errb}); got != c.code || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: exit %d, want %d with %q\n%s", c.args, got, c.code, c.want, errb.String())
		}
	}
}

func TestServeFailures(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--socket", filepath.Join(dir, "missing", "a.sock"), "--db", filepath.Join(dir, "a.db")}, "listen on"},
		{[]string{"--socket", filepath.Join(dir, "b.sock"), "--db", filepath.Join(dir, "b.db"), "--grants", filepath.Join(dir, "none.yaml")}, "grants file"},
		{[]string{"--socket", filepath.Join(dir, "c.sock"), "--db", filepath.Join(dir, "missing", "c.db")}, "SQLite store"},
	} {
		var errb syncbuf.Buffer
		if got := Run(context.Background(), testServer(), c.args, Stdio{Err: &errb}); got != ExitError || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: exit %d\n%s", c.args, got, errb.String())
		}
	}
}

func TestRedactDSN(t *testing.T) {
	for in, want := range map[string]string{
		"notes.db": "notes.db",
		"postgres://cetp:hunter2@db:5432/notes?sslmode=disable": "postgres://cetp:xxxxx@db:5432/notes?sslmode=disable",
		"postgres://db/notes?password=hunter2":                  "postgres://db/notes?password=xxxxx",
	} {
		if got := redactDSN(in); got != want {
			t.Errorf("redactDSN(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSocketMode checks the socket file's mode: 0600 by default, so only
// the server's UID can connect, and what --socket-mode says otherwise.
func TestSocketMode(t *testing.T) {
	for _, c := range []struct {
		args []string
		want os.FileMode
	}{{nil, 0o600}, {[]string{"--socket-mode", "0666"}, 0o666}} {
		r := start(t, testServer(), c.args...)
		fi, err := os.Stat(r.socket)
		if err != nil || fi.Mode().Perm() != c.want {
			t.Errorf("%v: socket mode %v, %v; want %04o", c.args, fi.Mode().Perm(), err, c.want)
		}
		r.stop(t)
	}
}
