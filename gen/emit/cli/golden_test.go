package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cetpgen/cetpgen/gen/emit"
	"github.com/cetpgen/cetpgen/gen/emit/cli"
)

// TestGoldenExamples proves, end to end, that each spec of specs/ renders
// exactly the committed out/cli/<slug>/ (main.go, app.go, catalog.go) and
// nothing else; `cetpgen generate` rewrites them.
func TestGoldenExamples(t *testing.T) {
	dirs := exampleSpecs(t)
	t.Chdir(repoRoot)
	for _, dir := range dirs {
		files, err := cli.Generate(load(t, dir))
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]bool{}
		for _, f := range files {
			want[f.Path] = true
			checkFile(t, f, filepath.Join("out", f.Path), false)
		}
		committed, _ := filepath.Glob(filepath.Join("out", cli.Dir, filepath.Base(dir), "*"))
		if len(committed) != len(files) {
			t.Errorf("%s: out/ holds %v, the target emits %d files", dir, committed, len(files))
		}
	}
}

// TestGoldenFlagRule renders testdata/specs/flagrule, every case of the
// flag rule, against testdata/golden (go test -update rewrites it).
func TestGoldenFlagRule(t *testing.T) {
	files, err := cli.Generate(load(t, "testdata/specs/flagrule"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		checkFile(t, f, filepath.Join("testdata/golden", f.Path), *update)
	}
}

// checkFile compares a generated file with its golden copy, or rewrites
// the copy.
func checkFile(t *testing.T, f emit.File, golden string, rewrite bool) {
	t.Helper()
	if !bytes.HasPrefix(f.Data, []byte("// "+emit.Marker+"\n// Source: ")) || !strings.HasSuffix(f.Path, ".go") {
		t.Errorf("%s: missing header or not Go", f.Path)
	}
	if rewrite {
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil || !bytes.Equal(f.Data, want) {
		t.Errorf("%s differs from %s (%v); regenerate it", f.Path, golden, err)
	}
}
