package cli_test

import (
	"path/filepath"
	"testing"

	"github.com/cetpgen/cetpgen/gen"
	"github.com/cetpgen/cetpgen/gen/emit/cli"
	"github.com/cetpgen/cetpgen/gen/internal/synth"
)

// BenchmarkGenerate1000 renders the catalog target for a synthetic
// Provider of 1,000 tools: the table, the catalog built once through
// every gate, and the three Go files.
func BenchmarkGenerate1000(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "synth")
	if err := synth.Write(dir, 1000); err != nil {
		b.Fatal(err)
	}
	ps, l, err := gen.Check(gen.OSSource, []string{dir})
	if err != nil || l.HasErrors() {
		b.Fatalf("check: %v %v", err, l)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := cli.Generate(ps[0]); err != nil {
			b.Fatal(err)
		}
	}
}
