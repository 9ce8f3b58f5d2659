package cetpcli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/cetpgen/cetpgen/runtime/cliout"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/binding/unixsock"
	"github.com/cetpgen/cetpgen/runtime/cetpcli"
	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/store/memstore"
)

// testApp is a hand-written table with one flag of every kind.
var testApp = &cetpcli.App{Name: "cetp-test", Product: "notes", ProductShort: "Notes", SocketEnv: "CETP_TEST_SOCKET", ProviderID: "com.example.notes",
	Commands: []cetpcli.Command{
		{Path: "notes echo", Aliases: []string{"notes say", "notes other echo"}, Canonical: "notes.echo", Tool: "echo",
			Required: []string{"text"}, Flags: []cetpcli.Flag{
				{Name: "count", Property: "count", Kind: cetpcli.Integer},
				{Name: "loud", Property: "loud", Kind: cetpcli.Boolean},
				{Name: "meta", Property: "meta", Kind: cetpcli.JSON},
				{Name: "mode", Property: "mode", Kind: cetpcli.Enum, Enum: []string{"a", "b"}, Default: "a"},
				{Name: "n", Property: "ns", Kind: cetpcli.Integer, List: true},
				{Name: "ratio", Property: "ratio", Kind: cetpcli.Number},
				{Name: "tag", Property: "tags", Kind: cetpcli.String, List: true},
				{Name: "text", Property: "text", Kind: cetpcli.String},
			}},
		{Path: "notes fail", Canonical: "notes.fail", Tool: "fail"},
		{Path: "notes slow", Canonical: "notes.slow", Tool: "slow"},
	}}

// recorder keeps the args each call of the echo tool received.
type recorder struct {
	mu   sync.Mutex
	args []string
}

func (r *recorder) echo(_ context.Context, _ *provider.Call, args json.RawMessage) (json.RawMessage, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.args = append(r.args, string(args))
	return args, nil
}

func (r *recorder) last() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.args) == 0 {
		return ""
	}
	return r.args[len(r.args)-1]
}

func fail(context.Context, *provider.Call, json.RawMessage) (json.RawMessage, error) {
	e := protocol.NewError(protocol.CodeConflict, "alert a_1 changed meanwhile")
	e.Details = json.RawMessage(`{"alert_id":"a_1"}`)
	return nil, e
}

// slow answers after a second, or when its call's context ends.
func slow(ctx context.Context, _ *provider.Call, _ json.RawMessage) (json.RawMessage, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-time.After(time.Second):
		return json.RawMessage(`{}`), nil
	}
}

// serve serves a Provider with the echo and fail tools on a fresh socket
// until the test ends.
func serve(t *testing.T, rec *recorder) string {
	t.Helper()
	ann := provider.Annotations{Effect: provider.EffectRead, Risk: provider.RiskLow,
		Confirmation: provider.ConfirmNever, Execution: provider.ExecSync}
	obj := json.RawMessage(`{"type":"object"}`)
	p, err := provider.New(provider.Descriptor{ID: "com.example.notes", Name: "Notes", Versions: []int{2}},
		[]provider.Tool{
			{Name: "echo", Title: "Echo", Description: "d", InputSchema: obj, OutputSchema: obj, Annotations: ann, Handler: rec.echo},
			{Name: "fail", Title: "Fail", Description: "d", InputSchema: obj, OutputSchema: obj, Annotations: ann, Handler: fail},
			{Name: "slow", Title: "Slow", Description: "d", InputSchema: obj, OutputSchema: obj, Annotations: ann, Handler: slow},
		}, provider.Options{Store: memstore.New()})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "cetp.sock")
	ln, err := unixsock.Listen(path, unixsock.DefaultSocketFileMode)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- unixsock.Serve(ctx, ln, p, unixsock.Options{}) }()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return path
}

// result is one run of the CLI.
type result struct {
	code           int
	stdout, stderr string
}

// run runs testApp with args, stdin and an environment holding only env.
func run(stdin string, env map[string]string, args ...string) result {
	var out, errb bytes.Buffer
	code := cetpcli.Run(context.Background(), testApp, cetpcli.Env{Stdio: cliout.Stdio{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb,
		Getenv: func(k string) string { return env[k] }}}, args)
	return result{code, out.String(), errb.String()}
}

// compact compacts JSON text, failing the test on invalid JSON.
func compact(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, s)
	}
	return b.String()
}
