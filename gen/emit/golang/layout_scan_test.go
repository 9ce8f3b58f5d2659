package golang

import (
	"bytes"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// scanLinesStd is scanLines by go/scanner, the reference the lexer is
// proven against: the lines of tokens less the semicolons the scanner
// inserts, ok false on a scan error or on a literal or comment the
// lexer does not read (a tab, a line break, a block comment).
func scanLinesStd(src []byte) ([]srcLine, bool) {
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(src))
	var s scanner.Scanner
	failed := false
	s.Init(file, src, func(token.Position, string) { failed = true }, scanner.ScanComments)
	var lines []srcLine
	last := 0
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF || failed {
			break
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue
		}
		line := 1 + bytes.Count(src[:file.Offset(pos)], []byte("\n"))
		if line != last {
			lines = append(lines, srcLine{blank: last != 0 && line > last+1})
			last = line
		}
		switch tok {
		case token.CHAR, token.STRING, token.COMMENT:
			if strings.ContainsAny(lit, "\t\v\f\r\n") || strings.HasPrefix(lit, "/*") {
				return nil, false
			}
		case token.IDENT, token.INT, token.FLOAT, token.IMAG:
		default:
			lit = ""
		}
		l := &lines[len(lines)-1]
		l.toks = append(l.toks, lexeme{tok: tok, lit: lit, line: line})
	}
	return lines, !failed
}

// sameLines reports whether the lexer scans src as go/scanner does,
// given that the lexer accepted it.
func sameLines(t *testing.T, src []byte) {
	t.Helper()
	var lx lexer
	got, ok := lx.scanLines(src)
	if !ok {
		return
	}
	want, ok := scanLinesStd(src)
	if !ok {
		t.Fatalf("the lexer accepts what go/scanner reports or the layout must not read:\n%q", src)
	}
	for i := range got {
		got[i].toks = append([]lexeme(nil), got[i].toks...)
	}
	if len(got) == 0 && len(want) == 0 {
		return // no tokens: an empty slice or none alike
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("scanned %q\nas   %v\nnot  %v", src, got, want)
	}
}

// FuzzScanLines proves that whatever the lexer accepts, go/scanner scans
// without error into the same tokens on the same lines.
func FuzzScanLines(f *testing.F) {
	for _, seed := range []string{
		"type T struct{\nA int `json:\"a,omitzero\"`\n}\n",
		"var x = []string{\"a\\n\\\"b\",\"\\u00e9\\U0001F600\\x7f\\101\",'\\'','é'}\n",
		"const F = 1.5e+06\nconst G = 0.25\nconst H = 0\n",
		"x <<= y &^ z ... a.b\n// comment é\n\n\nz := <-c\n",
		"'\\\"'\n\"\\'\"\n08\n1e\n1.\n.5\n0x1F\n1_000\n1i\n",
		"/* block */\n\"\\uD800\"\n\"\\777\"\n`raw\r`\n\xef\xbb\xbfx\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(sameLines)
}

// TestScanLinesGolden proves that the lexer reads every generated Go file
// of the golden cases as go/scanner does: the code the emitter writes is
// within the subset it reads.
func TestScanLinesGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "golden", "go", "*", "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var lx lexer
		if _, ok := lx.scanLines(src); !ok {
			t.Errorf("%s: the lexer does not read it", name)
			continue
		}
		sameLines(t, src)
	}
}

// TestLexerTokens proves that the lexer's keyword and operator tables are
// go/token's: every keyword and operator, alone and followed by each
// byte that could extend it, scans as go/scanner scans it.
func TestLexerTokens(t *testing.T) {
	for tok := token.ADD; tok <= token.TILDE; tok++ {
		if !tok.IsOperator() && !tok.IsKeyword() {
			continue
		}
		if got := keyword(tok.String()); tok.IsKeyword() && got != tok {
			t.Errorf("keyword(%q) = %v", tok.String(), got)
		}
		for _, next := range []string{"", " ", "=", "<", ">", "&", "|", "^", "+", "-", ".", ":", "x"} {
			sameLines(t, []byte("a "+tok.String()+next+" b\n"))
		}
	}
	for _, id := range []string{"b", "breaks", "v", "vars", "Type", "_", "x1", "élan"} {
		if got := keyword(id); got != token.IDENT {
			t.Errorf("keyword(%q) = %v, want IDENT", id, got)
		}
	}
}
