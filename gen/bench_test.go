package gen_test

import (
	"path/filepath"
	"runtime/debug"
	"testing"

	"github.com/cetpgen/cetpgen/gen"
	"github.com/cetpgen/cetpgen/gen/internal/synth"
)

// BenchmarkCheck1000 loads, validates and resolves a synthetic Provider of
// 1,000 tools (2,000 JSON Schemas), the whole of `cetpgen validate`, with
// the collector set as cmd/cetpgen sets it.
func BenchmarkCheck1000(b *testing.B) {
	defer debug.SetGCPercent(debug.SetGCPercent(800))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(1 << 30))
	dir := filepath.Join(b.TempDir(), "synth")
	if err := synth.Write(dir, 1000); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		ps, l, err := gen.Check(gen.OSSource, []string{dir})
		if err != nil || l.HasErrors() || len(ps[0].Tools) != 1000 {
			b.Fatalf("check: %v %v", err, l)
		}
	}
}
