package mcpbridge_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/internal/syncbuf"
	"github.com/cetpgen/cetpgen/mcpbridge"
	"github.com/cetpgen/cetpgen/runtime/binding/unixsock"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// alertsd is a running examples/alertsd whose confirmations the test
// answers on its terminal.
type alertsd struct {
	stdout, stderr *syncbuf.Buffer
	tty            *os.File
	socket         string
}

// built holds the binaries buildBinaries made, once per test process.
var built struct {
	once sync.Once
	dir  string
	err  error
	out  []byte
}

// buildBinaries builds alertsd and cetp into a temporary directory, once
// for every test of the process.
func buildBinaries(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "mcpbridge-bin-"); built.err != nil {
			return
		}
		built.out, built.err = exec.Command("go", "build", "-o", built.dir+"/",
			"github.com/cetpgen/cetpgen/examples/alertsd", "github.com/cetpgen/cetpgen/cmd/cetp").CombinedOutput()
	})
	if built.err != nil {
		t.Fatalf("go build: %v\n%s", built.err, built.out)
	}
	return built.dir
}

// TestMain removes the binaries after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// TestLargeResultOverStdio: a result past the inline limit travels from
// a Provider on a real socket as a file result (its descriptor passed
// over the socket), is verified by the bridge and reaches the host whole
// through the cetp binary's stdout. alertsd has no large result, so the
// test Provider serves it.
func TestLargeResultOverStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a binary")
	}
	bin := buildBinaries(t)
	n := &counters{}
	p := newProvider(t, testTools(n, 3<<20, 0), nil, "")
	path := filepath.Join(t.TempDir(), "p.sock")
	ln, err := unixsock.Listen(path, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- unixsock.Serve(ctx, ln, p, unixsock.Options{}) }()
	defer func() { cancel(); <-done }()
	s := startBridgeArgs(t, bin, "mcp", "--socket", path, "--max-result-bytes", "4194304")
	res := s.callTool(t, context.Background(), "big", map[string]any{}, nil)
	var v struct{ Blob string }
	if err := json.Unmarshal([]byte(structured(t, res)), &v); err != nil || len(v.Blob) != 3<<20 || n.big.Load() != 1 {
		t.Fatalf("large result: %v, %d bytes, %d runs\n%s", err, len(v.Blob), n.big.Load(), s.log)
	}
}

// startAlertsd starts alertsd with a terminal on stdin (so that it asks
// its confirmations there) and waits until it serves.
func startAlertsd(t *testing.T, bin string) *alertsd {
	t.Helper()
	dir := t.TempDir()
	master, slave := openPTY(t)
	d := &alertsd{stdout: &syncbuf.Buffer{}, stderr: &syncbuf.Buffer{}, tty: master, socket: filepath.Join(dir, "alerts.sock")}
	cmd := exec.Command(filepath.Join(bin, "alertsd"), "--socket", d.socket, "--db", filepath.Join(dir, "alerts.db"),
		"--work-delay", "1200ms", "--poll-after", "50ms")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, d.stdout, d.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	eventually(t, "alertsd serves", func() bool { return strings.Contains(d.stderr.String(), "serving") }, d.stderr)
	if !strings.Contains(d.stderr.String(), "asked on this terminal") {
		t.Fatalf("alertsd does not ask on its terminal:\n%s", d.stderr)
	}
	return d
}

// answer types line on alertsd's terminal once its n-th question is shown.
func (d *alertsd) answer(t *testing.T, n int, line string) {
	go func() {
		for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			if strings.Count(d.stdout.String(), "Approve? [y/N]") >= n {
				d.tty.WriteString(line + "\n")
				return
			}
		}
	}()
}

// eventually polls cond for up to ten seconds.
func eventually(t *testing.T, what string, cond func() bool, log *syncbuf.Buffer) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("%s: not in ten seconds; log:\n%s", what, log)
}

// startBridge runs the cetp binary's `cetp mcp` on socket and connects
// the MCP SDK's client to it over the process's stdin and stdout.
func startBridge(t *testing.T, bin, socket string) *session {
	t.Helper()
	return startBridgeArgs(t, bin, "mcp", "--socket", socket, "--provider-id", "com.example.app", "--timeout", "30s")
}

// startBridgeArgs runs the cetp binary with args and connects the MCP
// SDK's client to it.
func startBridgeArgs(t *testing.T, bin string, args ...string) *session {
	t.Helper()
	s := &session{log: &syncbuf.Buffer{}, changed: make(chan struct{}, 16)}
	cmd := exec.Command(filepath.Join(bin, "cetp"), args...)
	cmd.Stderr = s.log
	client := mcp.NewClient(&mcp.Implementation{Name: "test-host", Version: "v1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			s.mu.Lock()
			s.progress = append(s.progress, r.Params)
			s.mu.Unlock()
		},
	})
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.cs = cs
	t.Cleanup(func() { cs.Close() })
	return s
}

// TestAlertsdOverStdio drives examples/alertsd through the cetp binary's
// `cetp mcp`, with the MCP SDK's own client on its stdin and stdout and a
// proxy on the CETP socket that can lose an answer: the tools, a read, a
// write whose answer was lost (retried under its request ID: one alert),
// a delete approved and one denied on alertsd's own terminal, and an
// operation followed with progress, then cancelled by the host.
func TestAlertsdOverStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two binaries")
	}
	bin := buildBinaries(t)
	d := startAlertsd(t, bin)
	proxy := &cutProxy{upstream: d.socket}
	s := startBridge(t, bin, proxy.listen(t))
	t.Run("list", func(t *testing.T) { checkList(t, s) })
	t.Run("read", func(t *testing.T) {
		if got := structured(t, s.callTool(t, context.Background(), "list_alerts", map[string]any{}, nil)); !strings.HasPrefix(got, `{"alerts":[`) {
			t.Fatalf("list_alerts: %s", got)
		}
	})
	t.Run("write-cut", func(t *testing.T) { checkCutWrite(t, s, proxy) })
	t.Run("delete-approved", func(t *testing.T) {
		id := createAlert(t, s, "DEL")
		d.answer(t, 1, "y")
		res := s.callTool(t, context.Background(), "delete_alert", map[string]any{"alert_id": id}, mcp.Meta{"progressToken": "del"})
		if got := structured(t, res); got != `{"alert_id":"`+id+`","deleted":true}` || !s.waitingNoted() {
			t.Fatalf("approved delete: %s, notes %+v", got, s.notes())
		}
		if n := countAlerts(t, s, "DEL"); n != 0 {
			t.Fatalf("%d alerts left after the approved delete", n)
		}
	})
	t.Run("delete-denied", func(t *testing.T) {
		id := createAlert(t, s, "KEEP")
		d.answer(t, 2, "n")
		res := s.callTool(t, context.Background(), "delete_alert", map[string]any{"alert_id": id}, mcp.Meta{"confirmed": true})
		if e := errorOf(t, res); e.Code != "USER_CANCELLED" || e.Source != "provider" || e.Retryable {
			t.Fatalf("denied delete: %+v", e)
		}
		if n := countAlerts(t, s, "KEEP"); n != 1 {
			t.Fatalf("%d alerts after the denied delete, want 1", n)
		}
	})
	t.Run("async-cancel", func(t *testing.T) { checkCancel(t, s) })
}

func checkList(t *testing.T, s *session) {
	res, err := s.cs.ListTools(context.Background(), nil)
	if err != nil || len(res.Tools) != 4 {
		t.Fatalf("tools/list: %v, %+v", err, res)
	}
	for _, tool := range res.Tools {
		a, meta := tool.Annotations, tool.Meta[mcpbridge.MetaAnnotations].(map[string]any)
		switch tool.Name {
		case "delete_alert":
			if a.ReadOnlyHint || !*a.DestructiveHint || !a.IdempotentHint || meta["confirmation"] != "always" || tool.Title != "删除价格提醒" {
				t.Errorf("delete_alert: %+v %v", a, meta)
			}
		case "list_alerts":
			if !a.ReadOnlyHint || meta["effect"] != "read" {
				t.Errorf("list_alerts: %+v %v", a, meta)
			}
		case "create_alert":
			if a.ReadOnlyHint || meta["execution"] != "sync_or_async" {
				t.Errorf("create_alert: %+v %v", a, meta)
			}
		}
		if !strings.HasPrefix(tool.Description, "[CETP Provider description: untrusted") || tool.OutputSchema == nil {
			t.Errorf("%s: description %q, output schema %v", tool.Name, tool.Description, tool.OutputSchema)
		}
	}
}

// checkCutWrite: the answer of create_alert is lost; the bridge dials
// again and retries under the same request ID, and one alert exists.
func checkCutWrite(t *testing.T, s *session, proxy *cutProxy) {
	before := proxy.conns.Load()
	proxy.armed.Store(true)
	res := s.callTool(t, context.Background(), "create_alert", map[string]any{"symbol": "CUT", "price": 1}, mcp.Meta{"progressToken": "cut"})
	if !strings.Contains(structured(t, res), `"alert_id":"a_`) || proxy.cuts.Load() != 1 || proxy.conns.Load() <= before {
		t.Fatalf("create_alert after a cut: %s; %d cuts, %d new connections\n%s", text(res), proxy.cuts.Load(), proxy.conns.Load()-before, s.log)
	}
	if n := countAlerts(t, s, "CUT"); n != 1 {
		t.Fatalf("%d alerts after a retried create, want 1", n)
	}
	if logLines(s.log, "msg=tools/call", "tool=create_alert") != 1 {
		t.Fatalf("the bridge started more than one call:\n%s", s.log)
	}
}

// checkCancel: an operation reports progress; when the host cancels, the
// bridge cancels it at the Provider and logs the end the Provider
// reports, and no alert is left.
func checkCancel(t *testing.T, s *session) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Name: "create_alert", Arguments: map[string]any{"symbol": "SLOW", "price": 1},
			Meta: mcp.Meta{"progressToken": "slow"}})
		done <- err
	}()
	eventually(t, "an operation's progress notification", func() bool {
		for _, n := range s.notes() {
			if n.ProgressToken == "slow" && n.Meta[mcpbridge.MetaState] == "running" && n.Meta[mcpbridge.MetaProgress] != nil {
				return true
			}
		}
		return false
	}, s.log)
	cancel()
	<-done
	eventually(t, "the operation's end after the cancel", func() bool {
		return logLines(s.log, `msg="operation ended after the host cancelled"`, "state=cancelled") == 1
	}, s.log)
	if n := countAlerts(t, s, "SLOW"); n != 0 {
		t.Fatalf("%d alerts after a cancelled create", n)
	}
}

// createAlert creates an alert for symbol and returns its ID.
func createAlert(t *testing.T, s *session, symbol string) string {
	t.Helper()
	var out struct {
		AlertID string `json:"alert_id"`
	}
	got := structured(t, s.callTool(t, context.Background(), "create_alert", map[string]any{"symbol": symbol, "price": 10}, nil))
	if json.Unmarshal([]byte(got), &out) != nil || out.AlertID == "" {
		t.Fatalf("create_alert: %s", got)
	}
	return out.AlertID
}

// countAlerts returns how many alerts symbol has.
func countAlerts(t *testing.T, s *session, symbol string) int {
	t.Helper()
	var out struct {
		Alerts []json.RawMessage `json:"alerts"`
	}
	got := structured(t, s.callTool(t, context.Background(), "list_alerts", map[string]any{"symbol": symbol}, nil))
	if err := json.Unmarshal([]byte(got), &out); err != nil {
		t.Fatalf("list_alerts: %v: %s", err, got)
	}
	return len(out.Alerts)
}

// logLines counts the lines of log that hold every one of parts.
func logLines(log *syncbuf.Buffer, parts ...string) int {
	n := 0
	for _, line := range strings.Split(log.String(), "\n") {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(line, p)
		}
		if all {
			n++
		}
	}
	return n
}
