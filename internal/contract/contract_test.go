package contract

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/internal/syncbuf"
)

// TestPythonConsumerAgainstAlertsd builds examples/alertsd, starts two of
// them on sockets in a temporary directory, each with a fresh database
// and stdin not a terminal (so confirmations are denied): one whose
// create_alert works 300 ms, so that writes overlap and operations can be
// followed, and one without delay for the large-result checks, which
// write 400 times. It runs the Python Consumer written from docs/ against
// them; every check of consumer_check.py must report ok. The last check
// stops the first alertsd with SIGTERM while a call runs; alertsd must
// then exit cleanly.
func TestPythonConsumerAgainstAlertsd(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("this test runs the docs' independent Consumer, which needs python3 on PATH: %v", err)
	}
	dir := t.TempDir()
	out, err := exec.Command("go", "build", "-o", dir+"/", "github.com/cetpgen/cetpgen/examples/alertsd").CombinedOutput()
	if err != nil {
		t.Fatalf("go build alertsd: %v\n%s", err, out)
	}
	bin := filepath.Join(dir, "alertsd")
	socket, fast := filepath.Join(dir, "alerts.sock"), filepath.Join(dir, "fast.sock")
	slowd := startAlertsd(t, bin, socket, filepath.Join(dir, "alerts.db"), "--work-delay", "300ms", "--poll-after", "50ms")
	fastd := startAlertsd(t, bin, fast, filepath.Join(dir, "fast.db"), "--work-delay", "0")

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, python, "consumer_check.py", socket, fast)
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1", "ALERTSD_PID="+strconv.Itoa(slowd.cmd.Process.Pid))
	report, err := cmd.CombinedOutput()
	t.Logf("consumer_check.py:\n%s", report)
	if err != nil {
		t.Fatalf("consumer_check.py: %v; alertsd's stderr:\n%s\nthe second alertsd's:\n%s", err, slowd.stderr, fastd.stderr)
	}
	want := countChecks(t)
	if got := len(regexp.MustCompile(`(?m)^ok   `).FindAll(report, -1)); got != want {
		t.Fatalf("%d checks reported ok, consumer_check.py defines %d", got, want)
	}
	select {
	case <-slowd.exited:
		if slowd.err != nil || !strings.Contains(slowd.stderr.String(), "msg=stopped") {
			t.Fatalf("alertsd after SIGTERM: %v\n%s", slowd.err, slowd.stderr)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("alertsd did not stop after SIGTERM:\n%s", slowd.stderr)
	}
}

// daemon is a running alertsd.
type daemon struct {
	cmd    *exec.Cmd
	stderr *syncbuf.Buffer
	exited chan struct{} // closed when the process has exited
	err    error         // the process's exit, once exited is closed
}

// startAlertsd starts alertsd as the README does, on socket and db with
// the flags extra, and waits until its socket accepts a connection. It
// stops alertsd with SIGTERM at the end of the test.
func startAlertsd(t *testing.T, bin, socket, db string, extra ...string) *daemon {
	t.Helper()
	d := &daemon{stderr: &syncbuf.Buffer{}, exited: make(chan struct{})}
	d.cmd = exec.Command(bin, append([]string{"--socket", socket, "--db", db, "--auto-deny"}, extra...)...)
	d.cmd.Stderr = d.stderr
	if err := d.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { d.err = d.cmd.Wait(); close(d.exited) }()
	t.Cleanup(func() {
		select {
		case <-d.exited:
			return
		default:
		}
		d.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-d.exited:
		case <-time.After(10 * time.Second):
			d.cmd.Process.Kill()
			t.Errorf("alertsd did not stop on SIGTERM; its stderr:\n%s", d.stderr)
		}
	})
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if c, err := net.Dial("unix", socket); err == nil {
			c.Close()
			return d
		}
		select {
		case <-d.exited:
			t.Fatalf("alertsd exited: %v\n%s", d.err, d.stderr)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("alertsd did not listen on %s; its stderr:\n%s", socket, d.stderr)
		}
	}
}

// countChecks is the number of checks consumer_check.py defines, so that a
// check that never ran cannot pass unnoticed.
func countChecks(t *testing.T) int {
	t.Helper()
	src, err := os.ReadFile("consumer_check.py")
	if err != nil {
		t.Fatal(err)
	}
	return len(regexp.MustCompile(`(?m)^\s*@check\(`).FindAll(src, -1))
}
