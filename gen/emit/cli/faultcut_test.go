package cli_test

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/cetpgen/cetpgen/gen/emit/cli"
	"github.com/cetpgen/cetpgen/out/go/fitness"
	"github.com/cetpgen/cetpgen/runtime/binding/unixsock"
	"github.com/cetpgen/cetpgen/runtime/cliout"
	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/store/memstore"
)

// cutProxy forwards the connections made to its socket to the Provider's
// socket, byte for byte, and can cut every connection it carries, as a
// dying binding would.
type cutProxy struct {
	upstream string
	accepted atomic.Int64
	mu       sync.Mutex
	conns    []net.Conn
}

// listen starts the proxy on a fresh socket and returns its path.
func (p *cutProxy) listen(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "proxy.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close(); p.cut() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p.accepted.Add(1)
			u, err := net.Dial("unix", p.upstream)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, u)
			p.mu.Unlock()
			go func() { io.Copy(u, c); u.Close() }()
			go func() { io.Copy(c, u); c.Close() }()
		}
	}()
	return path
}

// cut closes every connection the proxy carries.
func (p *cutProxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// cuttingHandler serves a Provider and, after the Provider answered (and
// committed) an execute_tool, cuts the connections before the answer is
// written back: the first time only, or every time with always.
type cuttingHandler struct {
	p      *provider.Provider
	proxy  *cutProxy
	always atomic.Bool
	cuts   atomic.Int64
}

func (h *cuttingHandler) Call(ctx context.Context, caller provider.Caller, method string, extras protocol.Bundle) protocol.Bundle {
	resp := h.p.Call(ctx, caller, method, extras)
	if method == protocol.MethodExecuteTool && (h.always.Load() || h.cuts.Load() == 0) {
		h.cuts.Add(1)
		h.proxy.cut()
	}
	return resp
}

func (h *cuttingHandler) Launch(ctx context.Context, caller provider.Caller, r *protocol.Resolution) error {
	return h.p.Launch(ctx, caller, r)
}

// serveCutting serves the generated fitness Provider with fh behind a
// cutting proxy and returns the proxy's socket.
func serveCutting(t *testing.T, fh *fitnessHandler, always bool) (string, *cuttingHandler) {
	t.Helper()
	g := grantAll{}
	for _, s := range fitness.Descriptor().Scopes {
		g.scopes = append(g.scopes, s.Name)
	}
	p, err := fitness.New(fh, provider.Options{Store: memstore.New(), Authorizer: g, Confirmer: g})
	if err != nil {
		t.Fatal(err)
	}
	upstream := filepath.Join(t.TempDir(), "p.sock")
	ln, err := unixsock.Listen(upstream, unixsock.DefaultSocketFileMode)
	if err != nil {
		t.Fatal(err)
	}
	h := &cuttingHandler{p: p, proxy: &cutProxy{upstream: upstream}}
	h.always.Store(always)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- unixsock.ServeHandler(ctx, ln, h, unixsock.Options{}) }()
	t.Cleanup(func() { cancel(); <-done })
	return h.proxy.listen(t), h
}

var logArgs = []string{"fitness", "workout", "log", "--sport", "run", "--started-at", "2026-11-29T07:00:00Z", "--duration-seconds", "600"}

// TestGeneratedCLICutAfterCommit runs the generated fitness CLI while its
// connection is cut after the Provider committed log_workout and before
// the answer reached the CLI: the CLI dials again and retries under the
// same request ID; the workout is logged once and the stored result is
// printed.
func TestGeneratedCLICutAfterCommit(t *testing.T) {
	bin := buildCLI(t, "./out/cli/fitness", "")
	fh := &fitnessHandler{}
	sock, h := serveCutting(t, fh, false)
	code, out, errs := execCLI(t, bin, []string{cli.SocketEnv + "=" + sock}, logArgs...)
	logs, _ := fh.seen()
	if code != 0 || compactJSON(t, out) != `{"created_at":"2026-11-29T08:00:00Z","workout_id":"w_1"}` || len(logs) != 1 ||
		h.cuts.Load() != 1 || h.proxy.accepted.Load() != 2 {
		t.Fatalf("exit %d, stdout %s, stderr %s: %d workouts logged, %d cuts, %d connections", code, out, errs, len(logs), h.cuts.Load(), h.proxy.accepted.Load())
	}
}

// TestGeneratedCLIResumeByRequestID: when every answer is lost, the
// generated CLI fails with the request ID and a hint; running it again
// with --request-id prints the stored result without a second effect.
func TestGeneratedCLIResumeByRequestID(t *testing.T) {
	bin := buildCLI(t, "./out/cli/fitness", "")
	fh := &fitnessHandler{}
	sock, h := serveCutting(t, fh, true)
	env := []string{cli.SocketEnv + "=" + sock}
	code, _, errs := execCLI(t, bin, env, logArgs...)
	var body map[string]cliout.ErrorBody
	if err := json.Unmarshal([]byte(errs), &body); err != nil || code != cliout.ExitTransport || body["error"].RequestID == "" ||
		!strings.Contains(body["error"].Hint, "--request-id "+body["error"].RequestID) {
		t.Fatalf("exit %d, stderr %s", code, errs)
	}
	h.always.Store(false)
	h.cuts.Store(1)
	code, out, errs := execCLI(t, bin, env, append(logArgs, "--request-id", body["error"].RequestID)...)
	if logs, _ := fh.seen(); code != 0 || compactJSON(t, out) != `{"created_at":"2026-11-29T08:00:00Z","workout_id":"w_1"}` || len(logs) != 1 {
		t.Fatalf("resumed: exit %d, stdout %s, stderr %s, %d workouts logged", code, out, errs, len(logs))
	}
}

// TestGeneratedCLIRefusesAnotherProvider serves, on the fitness CLI's
// socket, a Provider with the same tools under another provider_id: the
// CLI sends it no arguments.
func TestGeneratedCLIRefusesAnotherProvider(t *testing.T) {
	bin := buildCLI(t, "./out/cli/fitness", "")
	t.Chdir(repoRoot)
	spec := load(t, "specs/fitness")
	spec.ID = "com.evil.fitness"
	rec := &calls{}
	sock := serve(t, providerOf(t, spec, rec))
	code, _, errs := execCLI(t, bin, []string{cli.SocketEnv + "=" + sock}, logArgs...)
	if code != cliout.ExitTransport || !strings.Contains(errs, cliout.CodeWrongProvider) || !strings.Contains(errs, "com.evil.fitness") {
		t.Fatalf("exit %d, stderr %s", code, errs)
	}
	if got := rec.all(); len(got) != 0 {
		t.Fatalf("the other Provider received %v", got)
	}
}
