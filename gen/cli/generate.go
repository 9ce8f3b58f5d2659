package cli

import (
	"fmt"
	"strings"

	"github.com/cetpgen/cetpgen/gen"
	"github.com/cetpgen/cetpgen/gen/diag"
	"github.com/cetpgen/cetpgen/gen/ir"
	"github.com/spf13/cobra"
)

// DefaultOutDir is where generated output goes when --out is not given.
const DefaultOutDir = "out"

// generateOptions are the flags of cetpgen generate.
type generateOptions struct {
	out      string
	targets  []string
	check    bool
	verbose  bool
	quiet    bool
	format   string
	warnings string
}

func newGenerate() *cobra.Command {
	var o generateOptions
	cmd := &cobra.Command{
		Use:   "generate [SPEC_DIR...]",
		Short: "Validate specs and write the generated output (or --check it)",
		Long: "generate validates each spec directory (default: every spec under specs/) and renders the\n" +
			"targets into --out (default out/). It writes all files or none: invalid specs write nothing.\n" +
			"With --check it writes nothing and exits 1 with a unified diff when out/ is stale.\n" +
			"On success it prints one line per spec (specs/notes: ok (4 tools); generated into out) to\n" +
			"stderr; -q leaves it out.",
		RunE: func(cmd *cobra.Command, args []string) error { return runGenerate(cmd, args, o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.out, "out", DefaultOutDir, "output directory")
	f.StringSliceVar(&o.targets, "target", nil, "targets to generate, comma-separated (default all: "+strings.Join(gen.TargetNames(), ",")+")")
	f.BoolVar(&o.check, "check", false, "write nothing; exit 1 with a diff if the output is stale")
	f.BoolVarP(&o.verbose, "verbose", "v", false, "list the files written or deleted")
	addFormatFlag(cmd, &o.format)
	addWarningsFlag(cmd, &o.warnings, warningsAll)
	addQuietFlag(cmd, &o.quiet)
	return cmd
}

func runGenerate(cmd *cobra.Command, args []string, o generateOptions) error {
	if err := checkFormat(o.format); err != nil {
		return err
	}
	if err := checkWarnings(o.warnings); err != nil {
		return err
	}
	if err := gen.CheckTargets(o.targets); err != nil {
		return failure(err)
	}
	a, err := resolveSpecArgs(args)
	if err != nil {
		return failure(err)
	}
	r, err := gen.Run(gen.OSSource, a.dirs, gen.RunOptions{Targets: o.targets, Out: o.out, Check: o.check,
		Checked: func(_ []*ir.Provider, l diag.List) error {
			if err := a.report(cmd, l, o.format, o.warnings); err != nil {
				return err
			}
			collectBetweenStages()
			return nil
		}})
	if err != nil {
		return asExitError(err)
	}
	c := &checked{providers: r.Providers, diags: r.Diags}
	if o.check {
		if err := reportStale(cmd, o.out, r.Stale, o.format); err != nil {
			return err
		}
		o.summary(cmd, c, "; "+o.out+" is up to date")
		return nil
	}
	if o.verbose {
		for _, p := range r.Written {
			fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s/%s\n", o.out, p)
		}
	}
	o.summary(cmd, c, "; generated into "+o.out)
	return nil
}

// summary prints the success line of each spec unless -q was given.
func (o generateOptions) summary(cmd *cobra.Command, c *checked, outcome string) {
	if !o.quiet {
		printSummary(cmd.ErrOrStderr(), c, o.format, outcome)
	}
}

// reportStale reports a stale output root: the diff d ("" when fresh) is
// the command's output (stdout) in text format; with a machine format
// stdout holds only the diagnostics, so the report goes to stderr.
func reportStale(cmd *cobra.Command, root, d, format string) error {
	if d == "" {
		return nil
	}
	w := cmd.OutOrStdout()
	if format != "text" {
		w = cmd.ErrOrStderr()
	}
	fmt.Fprint(w, d)
	fmt.Fprintf(cmd.ErrOrStderr(), "cetpgen: %s is stale; run cetpgen generate\n", root)
	return invalid()
}
