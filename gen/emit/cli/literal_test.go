package cli

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/cetpgen/cetpgen/gen/ir"
	"github.com/cetpgen/cetpgen/runtime/cetpcli"
	"github.com/dave/jennifer/jen"
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

// literalStrings are values for the string fields of a random table:
// empty (left out), plain, quoted, non-ASCII, escaped, long.
var literalStrings = []string{"", "", "a", "alert create", `say "hi"\n`, "价格提醒", "tab\there", "x\u2028y",
	strings.Repeat("long words ", 30), "`backquote`", "\x00\xff"}

func randStringsList(r *rand.Rand) []string {
	switch r.IntN(4) {
	case 0:
		return nil
	case 1:
		return []string{}
	}
	return []string{literalStrings[r.IntN(len(literalStrings))], literalStrings[r.IntN(len(literalStrings))]}
}

// randApp is a table with fields set or left out at random.
func randApp(r *rand.Rand) *cetpcli.App {
	s := func() string { return literalStrings[r.IntN(len(literalStrings))] }
	kinds := []cetpcli.Kind{"", cetpcli.String, cetpcli.Integer, cetpcli.Number, cetpcli.Boolean, cetpcli.Enum, cetpcli.JSON}
	app := &cetpcli.App{Name: "cetp-x", Short: s(), Long: s(), Product: s(), ProductShort: s(), ProviderID: s(), Revision: s(), SocketEnv: s()}
	for range r.IntN(4) {
		c := cetpcli.Command{Path: s(), Aliases: randStringsList(r), Canonical: s(), Tool: s(), Short: s(), Long: s(), Required: randStringsList(r)}
		for range r.IntN(4) {
			c.Flags = append(c.Flags, cetpcli.Flag{Name: s(), Property: s(), Kind: kinds[r.IntN(len(kinds))],
				List: r.IntN(2) == 0, Enum: randStringsList(r), Default: s(), Usage: s()})
		}
		if r.IntN(8) == 0 {
			c.Flags = []cetpcli.Flag{}
		}
		app.Commands = append(app.Commands, c)
	}
	return app
}

// TestAppendLiteralMatchesJennifer renders random tables both ways, the
// hand layout spliced into the skeleton and jennifer's literal formatted by
// go/format, and requires the same file.
func TestAppendLiteralMatchesJennifer(t *testing.T) {
	p := &ir.Provider{Slug: "x", File: "specs/x/provider.yaml"}
	r := rand.New(rand.NewPCG(5, 6))
	laidOut := 0
	for i := range 400 {
		app := randApp(r)
		want, err := renderFile(p, func(f *jen.File) { renderApp(f, app) })
		if err != nil {
			t.Fatal(err)
		}
		got, err := renderAppFile(p, app)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("table %d (%v):\n got %s\nwant %s", i, err, got, want)
		}
		if _, ok := appendLiteral(nil, reflect.ValueOf(app), 0, false); ok {
			laidOut++
		}
	}
	if laidOut < 100 {
		t.Fatalf("only %d of 400 tables were laid out by hand", laidOut)
	}
}
