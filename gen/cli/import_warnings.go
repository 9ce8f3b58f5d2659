package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/cetpgen/cetpgen/gen/diag"
	"github.com/cetpgen/cetpgen/gen/importer"
	"github.com/spf13/cobra"
)

// Warning modes of --warnings.
const (
	warningsNone    = "none"    // no warnings; errors and the totals only
	warningsSummary = "summary" // each rule's first warnings, then a count of the rest
	warningsAll     = "all"     // every warning
)

// warningModes lists the values --warnings accepts.
var warningModes = []string{warningsNone, warningsSummary, warningsAll}

// neverGrouped are rules whose every warning summary prints: each is a
// decision a person must make.
var neverGrouped = []string{importer.RulePlaceholder}

// summaryShown is how many warnings of one rule --warnings=summary prints
// before it counts the rest.
const summaryShown = 3

// addWarningsFlag registers --warnings with its default.
func addWarningsFlag(cmd *cobra.Command, mode *string, def string) {
	cmd.Flags().StringVar(mode, "warnings", def, "warnings to print: none, summary (the first "+fmt.Sprint(summaryShown)+" of each rule, then a count; every import placeholder), or all")
}

func checkWarnings(mode string) error {
	if !slices.Contains(warningModes, mode) {
		return failure(fmt.Errorf("unknown --warnings %q (want one of %s)", mode, strings.Join(warningModes, ", ")))
	}
	return nil
}

// printGrouped prints l in format with the warnings reduced by mode, then
// (in the text format) the totals, which always count every warning. The
// json and github formats are for machines and tools that group by
// themselves: summary keeps every warning there, none drops them.
func printGrouped(w io.Writer, l diag.List, format, mode string) error {
	shown, hidden := reduceWarnings(l, format, mode)
	if format == "json" || len(l) > 0 {
		if err := diag.Write(w, shown, format); err != nil {
			return err
		}
	}
	if format != "text" || len(l) == 0 {
		return nil
	}
	var b strings.Builder
	for _, h := range hidden {
		fmt.Fprintf(&b, "warning: %d more [%s] (--warnings=all lists them)\n", h.count, h.rule)
	}
	errs, warns := l.Count()
	fmt.Fprintf(&b, "%d error(s), %d warning(s)", errs, warns)
	if mode == warningsNone && warns > 0 {
		b.WriteString(" (warnings not shown: --warnings=summary or all)")
	}
	b.WriteByte('\n')
	_, err := io.WriteString(w, b.String())
	return err
}

// hiddenRule is how many warnings of a rule summary left out.
type hiddenRule struct {
	rule  string
	count int
}

// reduceWarnings keeps the errors and the warnings mode shows, in sorted
// order, and counts what summary hid, by rule in order of first
// appearance.
func reduceWarnings(l diag.List, format, mode string) (diag.List, []hiddenRule) {
	if mode == warningsAll || (mode == warningsSummary && format != "text") {
		return l, nil
	}
	var shown diag.List
	var hidden []hiddenRule
	seen := map[string]int{}
	for _, d := range l.Sorted() {
		if d.Severity == diag.Error {
			shown = append(shown, d)
			continue
		}
		if mode == warningsNone {
			continue
		}
		if slices.Contains(neverGrouped, d.Rule) {
			shown = append(shown, d)
			continue
		}
		seen[d.Rule]++
		switch n := seen[d.Rule]; {
		case n <= summaryShown:
			shown = append(shown, d)
		case n == summaryShown+1:
			hidden = append(hidden, hiddenRule{rule: d.Rule, count: 1})
		default:
			i := slices.IndexFunc(hidden, func(h hiddenRule) bool { return h.rule == d.Rule })
			hidden[i].count++
		}
	}
	return shown, hidden
}
