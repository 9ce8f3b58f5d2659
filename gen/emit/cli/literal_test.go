package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"
)

// TestAppendGoString parses the Go expression appendGoString writes and
// requires it to evaluate to the input, one line of Go per line of input.
func TestAppendGoString(t *testing.T) {
	for _, s := range []string{"", "{}", "a`b", "``", "`", "\uFEFF", "x\uFEFF`y\uFEFF\uFEFF", "line\n`next`\nlast\n", "é`ü\uFEFF"} {
		expr := string(appendGoString([]byte("prefix"), []byte(s)))[len("prefix"):]
		if len(expr) != goStringLen([]byte(s)) {
			t.Errorf("%q: goStringLen %d, wrote %d", s, goStringLen([]byte(s)), len(expr))
		}
		if strings.Count(expr, "\n") != strings.Count(s, "\n") || strings.Contains(expr, "\uFEFF") {
			t.Errorf("%q: %s changes the lines or holds a BOM", s, expr)
		}
		e, err := parser.ParseExpr(expr)
		if err != nil {
			t.Fatalf("%q: %s: %v", s, expr, err)
		}
		if got := evalString(t, e); got != s {
			t.Errorf("%q: %s evaluates to %q", s, expr, got)
		}
	}
}

// evalString evaluates a sum of string literals.
func evalString(t *testing.T, e ast.Expr) string {
	switch x := e.(type) {
	case *ast.BinaryExpr:
		if x.Op == token.ADD {
			return evalString(t, x.X) + evalString(t, x.Y)
		}
	case *ast.BasicLit:
		if s, err := strconv.Unquote(x.Value); err == nil {
			return s
		}
	}
	t.Fatalf("not a sum of string literals: %T", e)
	return ""
}
