package cli

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/cetpgen/cetpgen/gen/diag"
	"github.com/cetpgen/cetpgen/gen/ir"
	"github.com/spf13/cobra"
)

// addQuietFlag adds -q, which silences the success summary.
func addQuietFlag(cmd *cobra.Command, quiet *bool) {
	cmd.Flags().BoolVarP(quiet, "quiet", "q", false, "print nothing on success (diagnostics are still printed)")
}

// printSummary tells a person, on stderr, that each spec checked out:
// one line per spec directory, "specs/notes: ok (4 tools)", with its
// warnings counted and, for generate, what became of the output
// (outcome). Machine formats keep their streams to themselves, so the
// summary is written in the text format only.
func printSummary(w io.Writer, c *checked, format, outcome string) {
	if format != "text" {
		return
	}
	for _, p := range c.providers {
		fmt.Fprintf(w, "%s: ok (%s)%s\n", p.Dir, counts(p, c.diags), outcome)
	}
}

// counts describes a spec's size and its warnings: "4 tools, 1 warning".
func counts(p *ir.Provider, l diag.List) string {
	parts := []string{plural(len(p.Tools), "tool")}
	if n := warningsIn(p, l); n > 0 {
		parts = append(parts, plural(n, "warning"))
	}
	return strings.Join(parts, ", ")
}

// warningsIn counts the warnings of l in the files of p's spec directory.
func warningsIn(p *ir.Provider, l diag.List) int {
	dir := filepath.ToSlash(filepath.Dir(p.File)) + "/"
	n := 0
	for _, d := range l {
		if d.Severity == diag.Warning && strings.HasPrefix(filepath.ToSlash(d.Pos.File), dir) {
			n++
		}
	}
	return n
}

// plural renders "1 tool" or "4 tools".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
