package golang

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/cetpgen/cetpgen/gen/ir"
)

// TestExportName proves every property name becomes an exported Go
// identifier, deterministically.
func TestExportName(t *testing.T) {
	for in, want := range map[string]string{
		"alert_id": "AlertID", "type": "Type", "func": "Func", "": "X", "1st": "X1st",
		"a-b": "AB", "a.b c": "ABC", "价格": "X价格", "émoji": "Émoji", "-": "X",
		"quote\"d": "QuoteD", "x`tick": "XTick", "camelCase": "CamelCase", "__": "X",
	} {
		got := exportName(in)
		if got != want {
			t.Errorf("exportName(%q) = %q, want %q", in, got, want)
		}
		if !token.IsIdentifier(got) || !token.IsExported(got) {
			t.Errorf("exportName(%q) = %q is not an exported identifier", in, got)
		}
	}
}

// TestNamespace proves collisions get numeric suffixes in request order.
func TestNamespace(t *testing.T) {
	ns := newNamespace("Handler")
	got := []string{ns.take("Handler"), ns.take("AB"), ns.take("AB"), ns.take("AB2"), ns.take("AB")}
	if strings.Join(got, " ") != "Handler2 AB AB2 AB22 AB3" {
		t.Fatalf("got %v", got)
	}
}

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
