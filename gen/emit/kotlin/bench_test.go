package kotlin_test

import (
	"path/filepath"
	"testing"

	"github.com/cetpgen/cetpgen/gen"
	"github.com/cetpgen/cetpgen/gen/emit/kotlin"
	"github.com/cetpgen/cetpgen/gen/internal/synth"
)

// BenchmarkGenerate1000 renders the Kotlin of a synthetic Provider of
// 1,000 tools from its IR: the emit stage of cetpgen generate --target
// kotlin, at the size the Go generator's figures are taken.
func BenchmarkGenerate1000(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "synth")
	if err := synth.Write(dir, 1000); err != nil {
		b.Fatal(err)
	}
	ps, diags, err := gen.Check(gen.OSSource, []string{dir})
	if err != nil || diags.HasErrors() {
		b.Fatal(err, diags)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := kotlin.Generate(ps[0]); err != nil {
			b.Fatal(err)
		}
	}
}
