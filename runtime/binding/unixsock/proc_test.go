package unixsock_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/binding/unixsock"
	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// Environment of a child process started by these tests.
const (
	envChild = "CETP_UNIXSOCK_CHILD" // "serve" or "reuse"
	envPath  = "CETP_UNIXSOCK_PATH"  // the socket
	envToken = "CETP_UNIXSOCK_TOKEN" // the session token to reuse
)

// nobody is the UID and GID the second client runs as when the tests run
// as root.
const nobody = 65534

// TestMain runs a child role when the environment names one.
func TestMain(m *testing.M) {
	switch os.Getenv(envChild) {
	case "serve":
		os.Exit(childServe(os.Getenv(envPath)))
	case "reuse":
		os.Exit(childReuse(os.Getenv(envPath), os.Getenv(envToken)))
	case "opspy":
		os.Exit(childOpSpy(os.Getenv(envPath), os.Getenv(envOpID), os.Getenv(envOpReqID)))
	}
	os.Exit(m.Run())
}

// childServe serves the test Provider on path until its stdin closes.
func childServe(path string) int {
	p, err := buildProvider(nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ln, err := unixsock.Listen(path, unixsock.DefaultSocketFileMode)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { io.Copy(io.Discard, os.Stdin); cancel() }()
	fmt.Println("ready")
	if err := unixsock.ServeHandler(ctx, ln, fdHandler{p, os.TempDir()}, unixsock.Options{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// childReuse presents token, which another UID negotiated, then opens its
// own session; it prints the error code of the first call and the UID the
// Provider saw.
func childReuse(path, token string) int {
	tr, err := unixsock.Dial(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer tr.Close()
	resp, err := tr.Call(context.Background(), protocol.MethodListTools, envelope(token))
	code, _, _ := resp.String(protocol.KeyErrorCode)
	out, err2 := consumer.New(tr, consumer.Options{}).ExecuteTool(context.Background(), "whoami", json.RawMessage(`{}`))
	if err = errorsJoin(err, err2); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Printf("code=%s whoami=%s\n", code, out)
	return 0
}

func errorsJoin(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// sharedDir returns a directory that every local UID can traverse and
// read, removed when the test ends.
func sharedDir(t *testing.T) string {
	dir, err := os.MkdirTemp("", "cetp-unixsock")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// startProvider runs the test binary as a child Provider serving the
// socket at path and waits until it listens.
func startProvider(t *testing.T, path string) {
	cmd := childCmd(t, mustExecutable(t), "serve", path)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		if err := cmd.Wait(); err != nil {
			t.Errorf("child Provider: %v", err)
		}
	})
	if line, _ := bufio.NewReader(stdout).ReadString('\n'); line != "ready\n" {
		t.Fatalf("child Provider said %q", line)
	}
}

func mustExecutable(t *testing.T) string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// childCmd returns a command that runs exe in the given child role.
func childCmd(t *testing.T, exe, role, path string, env ...string) *exec.Cmd {
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), append(env, envChild+"="+role, envPath+"="+path)...)
	cmd.Stderr = &testWriter{t}
	return cmd
}

// testWriter logs what a child writes to its stderr.
type testWriter struct{ t *testing.T }

func (w *testWriter) Write(p []byte) (int, error) {
	w.t.Logf("child: %s", strings.TrimSpace(string(p)))
	return len(p), nil
}

// whoamiResult is the answer of the whoami tool.
type whoamiResult struct {
	UID int `json:"uid"`
	PID int `json:"pid"`
	GID int `json:"gid"`
}

// TestTwoProcesses proves, with the Provider in a child process, that the
// identity it sees is the kernel's: the UID is os.Getuid() and the peer
// PID and GID are this process's, whatever the client writes. It also
// proves descriptor passing between processes, with the Provider's
// descriptor count unchanged afterwards, and the session binding to the
// UID (TestSessionBoundToUID).
func TestTwoProcesses(t *testing.T) {
	dir := sharedDir(t)
	path := filepath.Join(dir, "cetp.sock")
	startProvider(t, path)
	tr := dial(t, path)
	c := consumer.New(tr, consumer.Options{})
	who, err := consumer.Invoke[whoamiResult](context.Background(), c, "whoami", map[string]any{"uid": 0})
	if err != nil {
		t.Fatal(err)
	}
	if who.UID != os.Getuid() || who.PID != os.Getpid() || who.GID != os.Getgid() {
		t.Fatalf("Provider saw %+v, want uid %d pid %d gid %d", who, os.Getuid(), os.Getpid(), os.Getgid())
	}
	t.Run("descriptors", func(t *testing.T) { crossProcessFDs(t, tr, c.Session().Token) })
	t.Run("session bound to UID", func(t *testing.T) { sessionBoundToUID(t, dir, path, c) })
}

// crossProcessFDs reads passed descriptors from the child Provider and
// checks that neither side keeps any.
func crossProcessFDs(t *testing.T, tr *unixsock.Transport, token string) {
	readResultFD(t, tr, token)
	base, childBase := restFDs(), childFDs(t, tr, token, -1)
	for range 10 {
		if got := readResultFD(t, tr, token); got != fileContent {
			t.Fatalf("content %q", got)
		}
	}
	waitFDs(t, base)
	childFDs(t, tr, token, childBase)
}

// childFDs returns the child Provider's descriptor count. With want
// negative it returns the lowest of several readings, the count at rest
// (a reading can catch a descriptor the server is still closing after a
// send); otherwise it waits up to five seconds for the count to drop to
// want or below, so that a leak, not a busy machine, fails the test.
func childFDs(t *testing.T, tr *unixsock.Transport, token string, want int) int {
	if want < 0 {
		low := childFDCount(t, tr, token)
		for range 20 {
			time.Sleep(5 * time.Millisecond)
			low = min(low, childFDCount(t, tr, token))
		}
		return low
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		n := childFDCount(t, tr, token)
		if n <= want {
			return n
		}
		if time.Now().After(deadline) {
			t.Fatalf("child Provider keeps descriptors open: %d, want at most %d", n, want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// childFDCount asks the child Provider for its descriptor count.
func childFDCount(t *testing.T, tr *unixsock.Transport, token string) int {
	resp, err := tr.Call(context.Background(), protocol.MethodExecuteTool, execute(token, "fdcount", `{}`))
	data, _, _ := resp.String(protocol.KeyData)
	var d struct{ Value struct{ N int } }
	if err != nil || json.Unmarshal([]byte(data), &d) != nil {
		t.Fatalf("fdcount: %v %v", resp, err)
	}
	return d.Value.N
}

// sessionBoundToUID runs a second client process. As root it runs as
// nobody and presents the first client's session token: the Provider must
// answer NEGOTIATION_REQUIRED, and its own session must see UID nobody.
// Without root no second UID exists; the second process then runs as the
// same UID and the token must be accepted, which proves the binding is to
// the kernel's UID and not to a connection or a process.
func sessionBoundToUID(t *testing.T, dir, path string, c *consumer.Client) {
	exe := filepath.Join(dir, "child.test")
	copyFile(t, mustExecutable(t), exe)
	cmd := childCmd(t, exe, "reuse", path, envToken+"="+c.Session().Token)
	cmd.Dir = dir
	wantCode, wantUID := "", os.Getuid()
	if os.Getuid() == 0 {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
		wantCode, wantUID = string(protocol.CodeNegotiationRequired), nobody
	} else {
		t.Logf("not root: the second client runs as UID %d and must be accepted", os.Getuid())
	}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("second client: %v", err)
	}
	want := fmt.Sprintf("code=%s whoami={\"gid\":%d,\"pid\":%d,\"uid\":%d}\n", wantCode, wantGID(wantUID), cmd.Process.Pid, wantUID)
	if string(out) != want {
		t.Fatalf("second client printed %q, want %q", out, want)
	}
	if _, err := c.ListTools(context.Background()); err != nil {
		t.Fatalf("first client after the second: %v", err)
	}
}

// wantGID is the GID of the second client.
func wantGID(uid int) int {
	if uid == nobody && os.Getuid() == 0 {
		return nobody
	}
	return os.Getgid()
}

func copyFile(t *testing.T, from, to string) {
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o755); err != nil {
		t.Fatal(err)
	}
}
