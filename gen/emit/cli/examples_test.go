package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/cetpgen/cetpgen/runtime/cliout"
	"strings"
	"testing"

	"github.com/cetpgen/cetpgen/gen/emit/cli"
	"github.com/cetpgen/cetpgen/gen/ir"
	"github.com/cetpgen/cetpgen/runtime/cetpcli"
)

// TestExamplesReachTheTool runs every cli.selection example of the
// example specs through the CLI's tree against a Provider over the
// Unix-socket binding, with confirmation approved: each must parse, pass
// the tool's input schema and reach its tool, whose answer is printed as
// the structured error on stderr.
func TestExamplesReachTheTool(t *testing.T) {
	n := 0
	for _, dir := range append(exampleSpecs(t), "testdata/specs/flagrule") {
		if !strings.HasPrefix(dir, "testdata") {
			dir = repoRoot + "/" + dir
		}
		p := load(t, dir)
		app, err := cli.BuildApp(p)
		if err != nil {
			t.Fatal(err)
		}
		rec := &calls{}
		sock := serve(t, providerOf(t, p, rec))
		for _, tool := range p.Tools {
			n += runExamples(t, app, tool, sock, rec)
		}
	}
	if n < 15 {
		t.Fatalf("only %d examples ran", n)
	}
}

// runExamples runs the examples of one tool and returns how many ran.
func runExamples(t *testing.T, app *cetpcli.App, tool *ir.Tool, sock string, rec *calls) int {
	if tool.CLI == nil {
		return 0
	}
	for _, ex := range tool.CLI.Examples {
		args, err := shellWords(ex)
		if err != nil {
			t.Fatalf("%s: %v", ex, err)
		}
		before := len(rec.all())
		var out, errb bytes.Buffer
		code := cetpcli.Run(context.Background(), app, cetpcli.Env{Stdio: cliout.Stdio{Stdout: &out, Stderr: &errb}}, append(args, "--socket", sock))
		got := rec.all()
		if code != cetpcli.ExitProvider || !strings.Contains(errb.String(), `"message": "`+recorded+`"`) || len(got) != before+1 {
			t.Errorf("%s: exit %d, stderr %s", ex, code, errb.String())
			continue
		}
		if !strings.HasPrefix(got[before], tool.Name+" {") {
			t.Errorf("%s: reached %s", ex, got[before])
		}
	}
	return len(tool.CLI.Examples)
}

// shellWords splits a command line as a POSIX shell would, for the
// quoting examples use: single quotes, double quotes with backslash
// escapes, and backslashes outside quotes.
func shellWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord, quote := false, rune(0)
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case quote == '\'' && r != '\'', quote == '"' && r != '"' && r != '\\':
			cur.WriteRune(r)
		case quote != 0 && r == quote:
			quote = 0
		case r == '\\' && i+1 < len(rs):
			i++
			cur.WriteRune(rs[i])
			inWord = true
		case quote == 0 && (r == '\'' || r == '"'):
			quote, inWord = r, true
		case quote == 0 && r == ' ':
			if inWord {
				words, inWord = append(words, cur.String()), false
				cur.Reset()
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unterminated quote")
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// TestShellWords checks the splitter on the quoting examples use.
func TestShellWords(t *testing.T) {
	got, err := shellWords(`a --p '{"k":"v w"}' "x \"y\"" z\ z`)
	want := []string{"a", "--p", `{"k":"v w"}`, `x "y"`, "z z"}
	if err != nil || !equalJSON(got, want) {
		t.Errorf("got %q, want %q (%v)", got, want, err)
	}
}

func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}
