package golang_test

import (
	"path/filepath"
	"testing"

	"github.com/cetpgen/cetpgen/gen/emit/golang"
	"github.com/cetpgen/cetpgen/gen/internal/synth"
)

// BenchmarkGenerate1000 renders the Go package of a synthetic Provider of
// 1,000 tools from its IR: the emit stage of cetpgen generate --target go.
func BenchmarkGenerate1000(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "synth")
	if err := synth.Write(dir, 1000); err != nil {
		b.Fatal(err)
	}
	p := load(b, dir)[0]
	b.ReportAllocs()
	for b.Loop() {
		if _, err := golang.Generate(p); err != nil {
			b.Fatal(err)
		}
	}
}
