package manifest_test

import (
	"bytes"
	"encoding/xml"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/cetpgen/cetpgen/gen"
	"github.com/cetpgen/cetpgen/gen/emit/manifest"
	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/golden")

// TestGolden renders the Kotlin target's test specs (the torture spec has a
// hostile Provider name and a package segment that is a Kotlin keyword) and
// compares the fragments with testdata/golden/<case>.txtar; -update
// rewrites them. Every fragment must parse.
func TestGolden(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join("..", "kotlin", "testdata", "specs", "*"))
	ps, diags, err := gen.Check(gen.OSSource, dirs)
	if err != nil || diags.HasErrors() || len(ps) == 0 {
		t.Fatalf("check: %v %v", err, diags)
	}
	for _, p := range ps {
		files, err := manifest.Generate(p)
		if err != nil {
			t.Fatal(err)
		}
		a := &txtar.Archive{}
		for _, f := range files {
			if err := xml.Unmarshal(f.Data, new(struct{})); err != nil {
				t.Errorf("%s does not parse: %v", f.Path, err)
			}
			a.Files = append(a.Files, txtar.File{Name: f.Path, Data: f.Data})
		}
		compareGolden(t, filepath.Join("testdata", "golden", p.Slug+".txtar"), txtar.Format(a))
	}
}

// compareGolden compares got with the golden file, or rewrites it.
func compareGolden(t *testing.T, golden string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs; run go test ./gen/emit/manifest -update and review the diff", golden)
	}
}
