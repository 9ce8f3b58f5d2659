package golang_test

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/cetpgen/cetpgen/gen/emit/golang"
	"github.com/cetpgen/cetpgen/gen/internal/synth"
	"github.com/cetpgen/cetpgen/gen/ir"
)

// TestChunksJoinAsWhole proves that formatting a file in chunks and
// joining them gives the bytes of formatting the whole file at once, for
// every golden spec and a synthetic Provider of 1,000 tools: with one
// chunk per declaration (every boundary a join) and with the chunks
// Generate uses, the schema constants left unformatted, against each
// file rendered whole by jennifer and gofmt.
func TestChunksJoinAsWhole(t *testing.T) {
	var ps []*ir.Provider
	for _, dir := range goldenCases(t) {
		ps = append(ps, load(t, dir)[0])
	}
	dir := filepath.Join(t.TempDir(), "synth")
	if err := synth.Write(dir, 1000); err != nil {
		t.Fatal(err)
	}
	ps = append(ps, load(t, dir)[0])
	for _, p := range ps {
		whole, err := golang.GenerateChunks(p, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, weight := range []int{1, 64} {
			chunked, err := golang.GenerateChunks(p, weight)
			if err != nil {
				t.Fatalf("%s, chunks of %d: %v", p.Slug, weight, err)
			}
			for i, f := range chunked {
				if f.Path != whole[i].Path || !bytes.Equal(f.Data, whole[i].Data) {
					t.Errorf("%s, chunks of %d: %s differs from the whole file's rendering", p.Slug, weight, f.Path)
				}
			}
		}
	}
}
