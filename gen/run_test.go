package gen_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cetpgen/cetpgen/gen"
	"github.com/cetpgen/cetpgen/gen/diag"
	"github.com/cetpgen/cetpgen/gen/ir"
)

// TestRunPipeline proves Run orders the stages: an unknown target fails
// before any spec is read, an invalid spec writes nothing and returns its
// diagnostics, a valid one writes every file of the chosen target, and
// Check then reports the output fresh, and stale after a file changes.
func TestRunPipeline(t *testing.T) {
	out := t.TempDir()
	if _, err := gen.Run(gen.OSSource, []string{"no/such/dir"}, gen.RunOptions{Targets: []string{"cobol"}, Out: out}); err == nil || !strings.Contains(err.Error(), "cobol") {
		t.Fatalf("unknown target: %v", err)
	}
	bad := t.TempDir()
	if err := os.WriteFile(filepath.Join(bad, "provider.yaml"), []byte("cetpgen: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := gen.Run(gen.OSSource, []string{bad}, gen.RunOptions{Targets: []string{"go"}, Out: out})
	if err != nil || !r.Diags.HasErrors() || len(r.Written) != 0 {
		t.Fatalf("invalid spec: %v, %d diagnostics, wrote %v", err, len(r.Diags), r.Written)
	}
	spec := []string{"../specs/alerts"}
	r, err = gen.Run(gen.OSSource, spec, gen.RunOptions{Targets: []string{"go"}, Out: out})
	want := []string{"go/alerts/client.go", "go/alerts/doc.go", "go/alerts/provider.go", "go/alerts/types.go"}
	if err != nil || r.Diags.HasErrors() || !slices.Equal(r.Written, want) {
		t.Fatalf("generate: %v, wrote %v", err, r.Written)
	}
	if r, err := gen.Run(gen.OSSource, spec, gen.RunOptions{Targets: []string{"go"}, Out: out, Check: true}); err != nil || r.Stale != "" {
		t.Fatalf("fresh output reported stale: %v\n%s", err, r.Stale)
	}
	doc := filepath.Join(out, "go/alerts/doc.go")
	data, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(doc, append(data, "// edited\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if r, err := gen.Run(gen.OSSource, spec, gen.RunOptions{Targets: []string{"go"}, Out: out, Check: true}); err != nil || !strings.Contains(r.Stale, "doc.go") {
		t.Fatalf("stale output not reported: %v\n%s", err, r.Stale)
	}
}

// TestTargetList proves the targets are one explicit list with unique
// names and directories.
func TestTargetList(t *testing.T) {
	names, dirs := map[string]bool{}, map[string]bool{}
	for _, tg := range gen.Targets() {
		if names[tg.Name] || dirs[tg.Dir] || (tg.Emit == nil) == (tg.EmitAt == nil) {
			t.Errorf("target %q (dir %q): duplicate, or not exactly one emitter", tg.Name, tg.Dir)
		}
		names[tg.Name], dirs[tg.Dir] = true, true
	}
	for _, n := range []string{"catalog", "go", "go-server", "kotlin", "manifest"} {
		if !names[n] {
			t.Errorf("target %s missing", n)
		}
	}
}

// TestRunCheckedHook proves Run hands the checked specs to the Checked
// hook before anything renders, errors included, and that the hook's
// error ends the run with nothing written.
func TestRunCheckedHook(t *testing.T) {
	out := t.TempDir()
	var seen int
	stop := errors.New("stop")
	_, err := gen.Run(gen.OSSource, []string{"../specs/alerts"}, gen.RunOptions{Targets: []string{"go"}, Out: out,
		Checked: func(ps []*ir.Provider, l diag.List) error { seen = len(ps); return stop }})
	if !errors.Is(err, stop) || seen != 1 {
		t.Fatalf("hook error %v, hook saw %d providers", err, seen)
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Fatalf("a stopped run wrote %d entries", len(entries))
	}
	bad := t.TempDir()
	if err := os.WriteFile(filepath.Join(bad, "provider.yaml"), []byte("cetpgen: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var errs bool
	r, err := gen.Run(gen.OSSource, []string{bad}, gen.RunOptions{Targets: []string{"go"}, Out: out,
		Checked: func(_ []*ir.Provider, l diag.List) error { errs = l.HasErrors(); return nil }})
	if err != nil || !errs || len(r.Providers) != 0 || len(r.Written) != 0 {
		t.Fatalf("invalid spec: %v, hook saw errors %v, %d providers, wrote %v", err, errs, len(r.Providers), r.Written)
	}
}
