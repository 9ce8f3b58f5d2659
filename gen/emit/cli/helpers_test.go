package cli_test

import (
	"context"
	"encoding/json"
	"flag"
	"path/filepath"
	"sync"
	"testing"

	"github.com/cetpgen/cetpgen/gen"
	"github.com/cetpgen/cetpgen/gen/ir"
	"github.com/cetpgen/cetpgen/runtime/binding/unixsock"
	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/store/memstore"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/golden")

// repoRoot is the module root, where specs/ and out/ are.
const repoRoot = "../../.."

// load checks one spec directory and fails the test on any diagnostic.
func load(t testing.TB, dir string) *ir.Provider {
	t.Helper()
	ps, l, err := gen.Check(gen.OSSource, []string{dir})
	if err != nil || l.HasErrors() {
		t.Fatalf("check %s: %v %v", dir, err, l)
	}
	return ps[0]
}

// exampleSpecs are the spec directories of specs/, relative to repoRoot.
func exampleSpecs(t testing.TB) []string {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join(repoRoot, "specs", "*"))
	if err != nil || len(dirs) < 3 {
		t.Fatalf("example specs: %v %v", dirs, err)
	}
	for i, d := range dirs {
		dirs[i], _ = filepath.Rel(repoRoot, d)
	}
	return dirs
}

// grantAll holds every scope of the Provider and approves every
// confirmation.
type grantAll struct {
	provider.DenyAll
	scopes []string
}

func (g grantAll) Scopes(context.Context, provider.Caller) ([]string, error) { return g.scopes, nil }

func (grantAll) Confirm(context.Context, provider.ConfirmRequest) (bool, error) { return true, nil }

// calls records the tool calls a Provider received.
type calls struct {
	mu  sync.Mutex
	got []string // "tool args"
}

func (c *calls) add(tool string, args json.RawMessage) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.got = append(c.got, tool+" "+string(args))
}

func (c *calls) all() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.got...)
}

// serve serves p on a fresh socket until the test ends and returns its
// path.
func serve(t *testing.T, p *provider.Provider) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "p.sock")
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

// providerOf builds a runtime Provider from the IR whose every tool
// records its call in rec and answers CONFLICT: the call passed the
// envelope, the input schema, the scopes and any confirmation.
func providerOf(t *testing.T, p *ir.Provider, rec *calls) *provider.Provider {
	t.Helper()
	g := grantAll{}
	d := provider.Descriptor{ID: p.ID, Name: p.Name, Description: p.Description, Versions: p.Versions}
	for _, s := range p.Scopes {
		g.scopes = append(g.scopes, s.Name)
		d.Scopes = append(d.Scopes, provider.Scope{Name: s.Name, Title: s.Title, Description: s.Description,
			Access: provider.Access(s.Access), Sensitivity: provider.Sensitivity(s.Sensitivity)})
	}
	var tools []provider.Tool
	for _, tool := range p.Tools {
		tools = append(tools, toolOf(tool, rec))
	}
	prov, err := provider.New(d, tools, provider.Options{Store: memstore.New(), Authorizer: g, Confirmer: g})
	if err != nil {
		t.Fatal(err)
	}
	return prov
}

// recorded is the error every tool of providerOf answers.
const recorded = "recorded"

func toolOf(t *ir.Tool, rec *calls) provider.Tool {
	a := t.Annotations
	pt := provider.Tool{Name: t.Name, Title: t.Title, Description: t.Description,
		InputSchema: t.Input.JSON, OutputSchema: t.Output.JSON,
		Annotations: provider.Annotations{Effect: provider.Effect(a.Effect), Risk: provider.Risk(a.Risk),
			Destructive: a.Destructive, Idempotent: a.Idempotent, OpenWorld: a.OpenWorld,
			Confirmation: provider.Confirmation(a.Confirmation), Execution: provider.ExecSync},
		Handler: func(_ context.Context, _ *provider.Call, args json.RawMessage) (json.RawMessage, error) {
			rec.add(t.Name, args)
			return nil, conflict()
		}}
	for _, s := range t.Scopes {
		pt.Scopes = append(pt.Scopes, s.Name)
	}
	return pt
}

func conflict() error { return protocol.NewError(protocol.CodeConflict, recorded) }
