package spec

import (
	"testing"

	"github.com/cetpgen/cetpgen/gen/diag"
)

// FuzzParse feeds arbitrary bytes to the spec file parser. It must never
// panic; it either returns a Doc whose every recorded pointer has a
// position in the file, or at least one error diagnostic and no Doc.
// Seeds: testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	f.Add([]byte("name: x\nv: [1, 2.5, true, null, {a: b}]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, l := Parse("f.yaml", "f.yaml", data)
		if doc == nil {
			if !l.HasErrors() {
				t.Fatalf("no Doc and no error: %v", l)
			}
			return
		}
		if l.HasErrors() {
			t.Fatalf("a Doc with errors: %v", l)
		}
		checkPositions(t, doc, l)
	})
}

func checkPositions(t *testing.T, doc *Doc, l diag.List) {
	for ptr := range doc.values {
		if p := doc.Pos(ptr); p.Line < 1 || p.Col < 1 {
			t.Fatalf("pointer %q has no position (%v)", ptr, p)
		}
	}
}
