package golang_test

import (
	"bytes"
	"testing"

	"github.com/cetpgen/cetpgen/gen/emit/golang"
)

// TestChunksJoinAsWhole proves that rendering a file in chunks and
// joining them gives the bytes of formatting the whole file at once, for
// every golden spec and a synthetic Provider of 1,000 tools: with one
// chunk per declaration (every boundary a join) and with the chunks
// Generate uses, the schema constants left unformatted and the other
// units laid out by layUnit where it knows them, against each file
// rendered whole by jennifer and go/format.
func TestChunksJoinAsWhole(t *testing.T) {
	for _, p := range goldenAndSynth(t, 1000) {
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
