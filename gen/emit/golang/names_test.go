package golang

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/cetpgen/cetpgen/gen/ir"
)

// TestValidTag proves the names encoding/json cannot take from a tag are
// recognised.
func TestValidTag(t *testing.T) {
	for name, want := range map[string]bool{
		"alert_id": true, "a b": true, "a.b": true, "价格": true, "": false, "-": false,
		"a,b": false, "quote\"d": false, "back\\slash": false, "x`tick": false, "it's": false,
	} {
		if validTag(name) != want {
			t.Errorf("validTag(%q) = %v", name, !want)
		}
	}
}

// TestCommentLines proves no spec text can leave a comment: every
// rendered line, inside a file, parses as a comment only.
func TestCommentLines(t *testing.T) {
	hostile := "*/ func init() { panic(1) } /*\nline two\r\n\u2028// x\u2029\x00\uFEFF `raw` \"q\"\n" + strings.Repeat("长", 250)
	var src strings.Builder
	src.WriteString("package p\n\n")
	for _, l := range commentLines(hostile) {
		src.WriteString("// " + l + "\n")
		if strings.ContainsAny(l, "\n\r\x00\uFEFF\u2028\u2029") {
			t.Errorf("unsafe rune left in %q", l)
		}
	}
	src.WriteString("var X = 1\n")
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", src.String(), parser.ParseComments)
	if err != nil || len(f.Decls) != 1 {
		t.Fatalf("hostile text broke out of its comment: %v\n%s", err, src.String())
	}
}

// TestWrap proves long lines wrap at spaces and long words are cut.
func TestWrap(t *testing.T) {
	lines := wrap(strings.Repeat("word ", 50) + strings.Repeat("x", 250))
	for _, l := range lines {
		if n := len([]rune(l)); n > wrapAt {
			t.Errorf("line of %d runes: %q", n, l)
		}
	}
	want := strings.Repeat("word", 50) + strings.Repeat("x", 250)
	if got := strings.ReplaceAll(strings.Join(lines, ""), " ", ""); got != want {
		t.Errorf("wrap lost text: %v", lines)
	}
}

// TestKeywordPackage proves a package name that is a Go keyword is an
// error, not broken code.
func TestKeywordPackage(t *testing.T) {
	p := &ir.Provider{Slug: "type"}
	p.Targets.GoPackage = "type"
	if _, err := Generate(p); err == nil {
		t.Fatal("keyword package accepted")
	}
}
