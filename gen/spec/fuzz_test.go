package spec

import "testing"

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
		checkPositions(t, doc, "", doc.Value)
	})
}

// checkPositions checks that every value of the document resolves by its
// pointer to a position.
func checkPositions(t *testing.T, doc *Doc, ptr string, v any) {
	if !doc.Has(ptr) {
		t.Fatalf("pointer %q does not resolve", ptr)
	}
	if p := doc.Pos(ptr); p.Line < 1 || p.Col < 1 {
		t.Fatalf("pointer %q has no position (%v)", ptr, p)
	}
	switch x := v.(type) {
	case map[string]any:
		for k, child := range x {
			checkPositions(t, doc, ptr+"/"+EscapeToken(k), child)
		}
	case []any:
		for i, child := range x {
			checkPositions(t, doc, ptr+"/"+itoa(i), child)
		}
	}
}
