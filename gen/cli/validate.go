package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/cetpgen/cetpgen/gen"
	"github.com/cetpgen/cetpgen/gen/diag"
	"github.com/spf13/cobra"
)

// DefaultSpecDir is where specs live when no directory is named.
const DefaultSpecDir = "specs"

func newValidate() *cobra.Command {
	var format, warnings string
	var quiet bool
	cmd := &cobra.Command{
		Use:   "validate [SPEC_DIR...]",
		Short: "Check Provider specs and print positioned diagnostics",
		Long: "validate loads each spec directory (default: every spec under specs/), checks it against the\n" +
			"meta-schemas, compiles its JSON Schemas and applies every CETP v2 rule a spec can break.\n" +
			"It prints all diagnostics at once, sorted, and writes nothing. Text goes to stderr;\n" +
			"--format json and --format github go to stdout. On success it prints one line per spec\n" +
			"(specs/notes: ok (4 tools)) to stderr; -q leaves it out.",
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(format); err != nil {
				return err
			}
			if err := checkWarnings(warnings); err != nil {
				return err
			}
			c, err := checkSpecs(cmd, args, format, warnings)
			if err != nil {
				return err
			}
			if !quiet {
				printSummary(cmd.ErrOrStderr(), c, format, "")
			}
			return nil
		},
	}
	addFormatFlag(cmd, &format)
	addWarningsFlag(cmd, &warnings, warningsAll)
	addQuietFlag(cmd, &quiet)
	return cmd
}

func addFormatFlag(cmd *cobra.Command, format *string) {
	cmd.Flags().StringVar(format, "format", "text", "diagnostics format: "+strings.Join(diag.Formats, ", "))
}

func checkFormat(format string) error {
	if !slices.Contains(diag.Formats, format) {
		return failure(fmt.Errorf("unknown --format %q (want one of %s)", format, strings.Join(diag.Formats, ", ")))
	}
	return nil
}

// checkSpecs runs the pipeline up to the IR, prints the diagnostics and a
// summary, and returns an exit error when the specs are invalid.
//
// An argument may also be a spec file (provider.yaml or a file in tools/),
// as pre-commit hooks and editors pass them: its whole spec is checked, the
// diagnostics of the named files are printed, and errors in the spec's
// other files are counted in one line, since they fail the run too.
func checkSpecs(cmd *cobra.Command, args []string, format, warnings string) (*checked, error) {
	a, err := resolveSpecArgs(args)
	if err != nil {
		return nil, failure(err)
	}
	providers, l, err := gen.Check(gen.OSSource, a.dirs)
	if err != nil {
		return nil, failure(err)
	}
	if err := a.report(cmd, l, format, warnings); err != nil {
		return nil, err
	}
	return &checked{providers: providers, diags: l}, nil
}

// report prints the diagnostics of the named files (see checkSpecs) and
// returns an exit error when the specs are invalid.
func (a specArgs) report(cmd *cobra.Command, l diag.List, format, warnings string) error {
	w := diagnosticsStream(cmd, format)
	shown := a.only(l)
	if err := printGrouped(w, shown, format, warnings); err != nil {
		return failure(err)
	}
	if format == "text" && a.files != nil {
		errs, _ := l.Count()
		shownErrs, _ := shown.Count()
		if more := errs - shownErrs; more > 0 {
			fmt.Fprintf(w, "%d more error(s) in other files of the spec\n", more)
		}
	}
	if l.HasErrors() {
		return invalid()
	}
	return nil
}

// diagnosticsStream is where diagnostics in format go: machine formats
// (json, github) are the command's output, on stdout, so that a script can
// read them apart from anything a person is told; text is for people, on
// stderr.
func diagnosticsStream(cmd *cobra.Command, format string) io.Writer {
	if format == "text" {
		return cmd.ErrOrStderr()
	}
	return cmd.OutOrStdout()
}

func printDiagnostics(w io.Writer, l diag.List, format string) error {
	if format == "json" || len(l) > 0 {
		if err := diag.Write(w, l, format); err != nil {
			return err
		}
	}
	if format == "text" && len(l) > 0 {
		errs, warns := l.Count()
		_, err := fmt.Fprintf(w, "%d error(s), %d warning(s)\n", errs, warns)
		return err
	}
	return nil
}
