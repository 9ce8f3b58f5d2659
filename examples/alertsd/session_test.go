package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"github.com/cetpgen/cetpgen/internal/syncbuf"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/store/pgstore/pgtest"
)

// TestTwoProcessSession builds alertsd and cetp, starts alertsd on a
// socket in a temporary directory and drives it with cetp as the README's
// two-terminal session does: the tools, an operation followed to its
// result, a failing call, a confirmation denied by the Provider, and a
// cancelled operation.
func TestTwoProcessSession(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two binaries")
	}
	bin, dir := buildBinaries(t), t.TempDir()
	d := startDaemon(t, bin, dir)
	t.Run("tools", func(t *testing.T) { checkTools(t, d) })
	t.Run("follow", func(t *testing.T) { checkFollow(t, d) })
	t.Run("error", func(t *testing.T) { checkError(t, d) })
	t.Run("denied", func(t *testing.T) { checkDenied(t, d) })
	t.Run("cancel", func(t *testing.T) { checkCancel(t, d) })
	t.Run("usage", func(t *testing.T) { checkUsage(t, d) })
	t.Run("restart", func(t *testing.T) { checkRestart(t, d, bin, dir) })
}

// TestTwoProcessSessionOnPostgres runs the session on the shared
// PostgreSQL store (--db postgres://…), alerts table included, when the
// test server of scripts/postgres.sh is running.
func TestTwoProcessSessionOnPostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two binaries")
	}
	dsn := pgtest.Schema(t)
	bin, dir := buildBinaries(t), t.TempDir()
	d := startDaemonOn(t, bin, dir, dsn)
	t.Run("follow", func(t *testing.T) { checkFollow(t, d) })
	t.Run("error", func(t *testing.T) { checkError(t, d) })
	t.Run("denied", func(t *testing.T) { checkDenied(t, d) })
	t.Run("cancel", func(t *testing.T) { checkCancel(t, d) })
	d.stop(t)
	if strings.Contains(d.stderr.String(), "password") {
		t.Errorf("the DSN's password reached the log:\n%s", d.stderr)
	}
}

// daemon is a running alertsd and the cetp binary that talks to it.
type daemon struct {
	cmd    *exec.Cmd
	cetp   string
	socket string
	stderr *syncbuf.Buffer
	done   chan error
}

// buildBinaries builds alertsd and cetp into a temporary directory.
func buildBinaries(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	out, err := exec.Command("go", "build", "-o", dir+"/",
		"github.com/cetpgen/cetpgen/examples/alertsd", "github.com/cetpgen/cetpgen/cmd/cetp").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return dir
}

// startDaemon starts alertsd on a socket and database in dir, with stdin
// not a terminal (so confirmations are denied) and a short work delay, and
// waits until it serves.
func startDaemon(t *testing.T, bin, dir string) *daemon {
	t.Helper()
	return startDaemonOn(t, bin, dir, filepath.Join(dir, "alerts.db"))
}

// startDaemonOn is startDaemon on the store db names.
func startDaemonOn(t *testing.T, bin, dir, db string) *daemon {
	t.Helper()
	d := &daemon{cetp: filepath.Join(bin, "cetp"), socket: filepath.Join(dir, "alerts.sock"),
		stderr: &syncbuf.Buffer{}, done: make(chan error, 1)}
	d.cmd = exec.Command(filepath.Join(bin, "alertsd"), "--socket", d.socket, "--db", db,
		"--work-delay", "1200ms", "--poll-after", "50ms")
	d.cmd.Stderr = d.stderr
	if err := d.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { d.done <- d.cmd.Wait() }()
	t.Cleanup(func() { d.cmd.Process.Kill() })
	waitFor(t, d, func() bool { return strings.Contains(d.stderr.String(), "serving") })
	return d
}

// waitFor polls cond for up to ten seconds.
func waitFor(t *testing.T, d *daemon, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("alertsd did not get there; its stderr:\n%s", d.stderr)
}

// stop sends SIGTERM and checks that alertsd stops cleanly.
func (d *daemon) stop(t *testing.T) {
	t.Helper()
	d.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-d.done:
		if err != nil || !strings.Contains(d.stderr.String(), "msg=stopped") {
			t.Fatalf("alertsd after SIGTERM: %v\n%s", err, d.stderr)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("alertsd did not stop on SIGTERM")
	}
	if _, err := os.Stat(d.socket); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the socket is left behind: %v", err)
	}
}

// result is one run of cetp.
type result struct {
	code           int
	stdout, stderr string
}

// cetp runs cetp with args against the daemon's socket.
func (d *daemon) run(t *testing.T, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, d.cetp, append([]string{"--socket", d.socket}, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("cetp %v: %v", args, err)
	}
	return result{code: cmd.ProcessState.ExitCode(), stdout: out.String(), stderr: errb.String()}
}

// errorOf decodes the {"error": ...} object cetp prints on stderr.
func errorOf(t *testing.T, r result) map[string]any {
	t.Helper()
	var v struct {
		Error map[string]any `json:"error"`
	}
	if err := json.Unmarshal([]byte(r.stderr[strings.Index(r.stderr, "{"):]), &v); err != nil || v.Error == nil {
		t.Fatalf("stderr holds no error object: %v\n%s", err, r.stderr)
	}
	return v.Error
}

func checkTools(t *testing.T, d *daemon) {
	r := d.run(t, "tools")
	for _, s := range []string{"Example App (com.example.app)", "create_alert", "sync_or_async", "delete_alert", "destructive,idempotent", "创建价格提醒"} {
		if r.code != 0 || !strings.Contains(r.stdout, s) {
			t.Fatalf("cetp tools: exit %d, %q missing\n%s%s", r.code, s, r.stdout, r.stderr)
		}
	}
	r = d.run(t, "tools", "--json")
	var list struct {
		Revision string           `json:"revision"`
		Tools    []map[string]any `json:"tools"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &list); err != nil || len(list.Tools) != 4 || list.Revision == "" {
		t.Fatalf("cetp tools --json: %v\n%s", err, r.stdout)
	}
}

func checkFollow(t *testing.T, d *daemon) {
	r := d.run(t, "call", "--follow", "create_alert", `{"symbol":"600519.SH","price":1688}`)
	var out struct {
		AlertID string `json:"alert_id"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &out) != nil || !strings.HasPrefix(out.AlertID, "a_") {
		t.Fatalf("cetp call --follow: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, s := range []string{"accepted as operation op_", "cetp: create_alert ", "/4 ("} {
		if !strings.Contains(r.stderr, s) {
			t.Fatalf("stderr of --follow lacks %q:\n%s", s, r.stderr)
		}
	}
	r = d.run(t, "call", "list_alerts", `{"symbol":"600519.SH"}`)
	if r.code != 0 || !strings.Contains(r.stdout, out.AlertID) {
		t.Fatalf("the created alert is not listed: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if log := d.stderr.String(); strings.Contains(log, "600519") || !strings.Contains(log, "tool=create_alert") {
		t.Fatalf("the log shows an argument value, or not the call:\n%s", log)
	}
}

func checkError(t *testing.T, d *daemon) {
	r := d.run(t, "call", "create_alert", `{"symbol":"AAPL","price":-1}`)
	e := errorOf(t, r)
	if r.code != 1 || e["code"] != "INVALID_ARGS" || e["source"] != "provider" || e["retryable"] != false {
		t.Fatalf("invalid args: exit %d, error %v", r.code, e)
	}
	r = d.run(t, "call", "update_alert", `{"alert_id":"a_missing","paused":true}`)
	if e := errorOf(t, r); r.code != 1 || e["code"] != "CONFLICT" {
		t.Fatalf("unknown alert: exit %d, error %v", r.code, e)
	}
}

func checkDenied(t *testing.T, d *daemon) {
	r := d.run(t, "call", "delete_alert", `{"alert_id":"a_x"}`)
	e := errorOf(t, r)
	if r.code != 1 || e["code"] != "USER_CANCELLED" || !strings.Contains(r.stderr, "asks its user for a decision") {
		t.Fatalf("auto-denied delete: exit %d, error %v\n%s", r.code, e, r.stderr)
	}
	if !strings.Contains(d.stderr.String(), "code=USER_CANCELLED confirmation=denied") {
		t.Fatalf("alertsd did not log the denial:\n%s", d.stderr)
	}
}

func checkCancel(t *testing.T, d *daemon) {
	r := d.run(t, "call", "--async", "create_alert", `{"symbol":"SLOW","price":1}`)
	var h struct {
		OperationID string `json:"operation_id"`
		RequestID   string `json:"request_id"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &h) != nil || h.OperationID == "" {
		t.Fatalf("cetp call --async: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = d.run(t, "operation", "cancel", "--wait", "--request-id", h.RequestID, "--tool", "create_alert", h.OperationID)
	if r.code != 0 || !strings.Contains(r.stdout, `"state": "cancelled"`) {
		t.Fatalf("cetp operation cancel --wait: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = d.run(t, "operation", "get", "--request-id", h.RequestID, "--tool", "create_alert", h.OperationID)
	if r.code != 0 || !strings.Contains(r.stdout, `"state": "cancelled"`) {
		t.Fatalf("cetp operation get: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r = d.run(t, "call", "list_alerts", `{"symbol":"SLOW"}`); !strings.Contains(r.stdout, `"alerts": []`) {
		t.Fatalf("a cancelled create left an alert:\n%s%s", r.stdout, r.stderr)
	}
}

func checkUsage(t *testing.T, d *daemon) {
	if r := d.run(t, "call"); r.code != 2 || errorOf(t, r)["code"] != "CLI_USAGE" {
		t.Fatalf("cetp call without a tool: exit %d\n%s", r.code, r.stderr)
	}
	if r := d.run(t, "call", "list_alerts", "[1]"); r.code != 2 {
		t.Fatalf("cetp call with an array: exit %d\n%s", r.code, r.stderr)
	}
	r := d.run(t, "tools", "--socket", d.socket+".none")
	if r.code != 3 || errorOf(t, r)["code"] != "CLI_TRANSPORT" {
		t.Fatalf("cetp tools on no socket: exit %d\n%s", r.code, r.stderr)
	}
}

// checkRestart stops alertsd while an operation runs and starts it again
// on the same database: the operation, left in the store, is resumed and
// succeeds once.
func checkRestart(t *testing.T, d *daemon, bin, dir string) {
	r := d.run(t, "call", "--async", "create_alert", `{"symbol":"RESUMED","price":1}`)
	var h struct {
		OperationID string `json:"operation_id"`
		RequestID   string `json:"request_id"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &h) != nil {
		t.Fatalf("cetp call --async: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	d.stop(t)
	d = startDaemon(t, bin, dir)
	defer d.stop(t)
	r = d.run(t, "operation", "get", "--wait", "--request-id", h.RequestID, "--tool", "create_alert", h.OperationID)
	if r.code != 0 || !strings.Contains(r.stdout, `"state": "succeeded"`) {
		t.Fatalf("the operation after a restart: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = d.run(t, "call", "list_alerts", `{"symbol":"RESUMED"}`)
	if strings.Count(r.stdout, `"alert_id"`) != 1 {
		t.Fatalf("want one alert after the restart:\n%s%s", r.stdout, r.stderr)
	}
}
