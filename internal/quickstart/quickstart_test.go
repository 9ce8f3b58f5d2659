package quickstart

import (
	"bytes"
	"context"
	"errors"
	"github.com/cetpgen/cetpgen/internal/syncbuf"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// repoRoot is the repository root, relative to this package.
const repoRoot = "../.."

// TestParseQuickstart checks that the README's quickstart has the steps
// the end-to-end test depends on, so that an edit of the README that
// drops one fails here with a clear message.
func TestParseQuickstart(t *testing.T) {
	steps := readmeSteps(t)
	var kinds []string
	for _, s := range steps {
		kinds = append(kinds, s.kind)
	}
	for _, k := range []string{stepShell, stepServer, stepFile, stepReplace} {
		if !strings.Contains(strings.Join(kinds, " "), k) {
			t.Errorf("the quickstart has no %s step: %v", k, kinds)
		}
	}
}

func readmeSteps(t *testing.T) []step {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	steps, err := parseQuickstart(string(data))
	if err != nil {
		t.Fatal(err)
	}
	return steps
}

// session is the quickstart being run: the reader's directory, their
// environment, the server in the background, and every command's output.
type session struct {
	t      *testing.T
	dir    string
	env    []string
	server *exec.Cmd
	log    *syncbuf.Buffer
	out    map[string]string // command line -> stdout and stderr
	ran    []string          // the command lines run, in order
	edited []byte            // the reader's skeleton after the replacement
	editAt int               // len(ran) when the skeleton was edited
}

// TestQuickstart runs the README's quickstart as printed, in an empty
// directory, with the module proxy of this working tree, then checks what
// the reader should have seen.
func TestQuickstart(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module from a proxy")
	}
	s := newSession(t)
	for _, st := range readmeSteps(t) {
		s.do(st)
	}
	s.stopServer()
	s.checkOutcome()
	s.checkSecondGenerate()
}

func newSession(t *testing.T) *session {
	repo, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	proxy := t.TempDir()
	if _, err := WriteProxy(repo, proxy); err != nil {
		t.Fatal(err)
	}
	modcache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	s := &session{t: t, dir: t.TempDir(), log: &syncbuf.Buffer{}, out: map[string]string{}}
	s.env = append(os.Environ(),
		"GOPROXY=file://"+proxy+",file://"+filepath.Join(strings.TrimSpace(string(modcache)), "cache", "download"),
		"GOSUMDB=off", "GOTOOLCHAIN=local", "GOWORK=off", "GOFLAGS=-buildvcs=false", "CETP_SOCKET=")
	return s
}

// do runs one step.
func (s *session) do(st step) {
	s.t.Helper()
	switch st.kind {
	case stepFile:
		s.write(st.path, st.text)
	case stepReplace:
		src, err := os.ReadFile(filepath.Join(s.dir, st.path))
		if err != nil {
			s.t.Fatal(err)
		}
		repl, err := replaceMethod(string(src), st.method, st.text)
		if err != nil {
			s.t.Fatalf("%s: %v", st.path, err)
		}
		s.write(st.path, repl)
		s.edited, s.editAt = []byte(repl), len(s.ran)
	case stepServer:
		s.startServer(st.line)
	default:
		s.run(st)
	}
}

func (s *session) write(rel, text string) {
	s.t.Helper()
	p := filepath.Join(s.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		s.t.Fatal(err)
	}
}

// run runs one command line with bash in the reader's directory; an
// export line changes the environment of the lines after it.
func (s *session) run(st step) {
	s.t.Helper()
	if name, value, ok := strings.Cut(strings.TrimPrefix(st.line, "export "), "="); ok && strings.HasPrefix(st.line, "export ") {
		s.env = append(s.env, name+"="+value)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", st.line)
	cmd.Dir, cmd.Env = s.dir, s.env
	out, err := cmd.CombinedOutput()
	s.out[st.line] = string(out)
	s.ran = append(s.ran, st.line)
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		s.t.Fatalf("%s: %v", st.line, err)
	}
	if code != st.wantExit {
		s.t.Fatalf("%s: exit %d, want %d\n%s\nserver log:\n%s", st.line, code, st.wantExit, out, s.log)
	}
}

// startServer starts the server line in the background and waits until
// it serves.
func (s *session) startServer(line string) {
	s.t.Helper()
	s.server = exec.Command("bash", "-c", "exec "+line)
	s.server.Dir, s.server.Env = s.dir, s.env
	s.server.Stdout, s.server.Stderr = s.log, s.log
	s.server.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := s.server.Start(); err != nil {
		s.t.Fatal(err)
	}
	s.t.Cleanup(func() { syscall.Kill(-s.server.Process.Pid, syscall.SIGKILL) })
	for deadline := time.Now().Add(3 * time.Minute); !strings.Contains(s.log.String(), "msg=serving"); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) || s.server.ProcessState != nil {
			s.t.Fatalf("%s did not start serving:\n%s", line, s.log)
		}
	}
}

// stopServer sends SIGTERM, as Ctrl-C would, and waits for the graceful
// stop.
func (s *session) stopServer() {
	s.t.Helper()
	if s.server == nil {
		s.t.Fatal("the quickstart starts no server")
	}
	syscall.Kill(-s.server.Process.Pid, syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- s.server.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		s.t.Fatalf("the server did not stop on SIGTERM:\n%s", s.log)
	}
	if !strings.Contains(s.log.String(), "msg=stopped") {
		s.t.Fatalf("the server did not stop gracefully:\n%s", s.log)
	}
}

// outputOf returns the output of the first command line that starts with
// prefix.
func (s *session) outputOf(prefix string) string {
	s.t.Helper()
	for line, out := range s.out {
		if strings.HasPrefix(line, prefix) {
			return out
		}
	}
	s.t.Fatalf("the quickstart runs no %q", prefix)
	return ""
}

// checkOutcome checks what the reader sees: the tools listed, the
// implemented handler's answers through cetp and through the generated
// CLI, the clear error of the method not written yet, and a server log
// with each call and no argument value.
func (s *session) checkOutcome() {
	s.t.Helper()
	for prefix, want := range map[string][]string{
		"go tool cetp tools":                  {"add_note", "get_status", "create", "Notes (com.example.notes)"},
		"go tool cetp call add_note":          {`"note_id": "n1"`},
		"go run ./out/cli/notes notes add":    {`"note_id": "n2"`},
		"go tool cetp call get_status":        {"INTERNAL_ERROR", "get_status is not implemented yet"},
		"go run ./out/cli/notes schema":       {"notes add", "text"},
		"go tool cetpgen validate":            {"specs/notes: ok (2 tools)"},
		"go tool cetpgen init notes":          {"wrote specs/notes"},
		"go run ./out/cli/notes notes status": {"get_status is not implemented yet"},
	} {
		out := s.outputOf(prefix)
		for _, w := range want {
			if !strings.Contains(out, w) {
				s.t.Errorf("%s: the output lacks %q:\n%s", prefix, w, out)
			}
		}
	}
	log := s.log.String()
	for _, w := range []string{"tool=add_note", "status=success", "tool=get_status", `handler_error="INTERNAL_ERROR: get_status is not implemented yet"`} {
		if !strings.Contains(log, w) {
			s.t.Errorf("the server log lacks %q:\n%s", w, log)
		}
	}
	if strings.Contains(log, "buy milk") {
		s.t.Errorf("an argument value reached the server log:\n%s", log)
	}
}

// checkSecondGenerate checks that generate ran again after the reader
// edited the skeleton and left it exactly as they wrote it.
func (s *session) checkSecondGenerate() {
	s.t.Helper()
	if s.edited == nil || !slices.Contains(s.ran[s.editAt:], "go tool cetpgen generate") {
		s.t.Fatalf("the quickstart does not run go tool cetpgen generate after the skeleton's edit: %q", s.ran)
	}
	data, err := os.ReadFile(filepath.Join(s.dir, "out", "cmd", "notes", "main.go"))
	if err != nil {
		s.t.Fatal(err)
	}
	if !bytes.Equal(data, s.edited) {
		s.t.Errorf("generate changed the reader's out/cmd/notes/main.go:\n%s", data)
	}
}
