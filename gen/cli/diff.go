package cli

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/cetpgen/cetpgen/gen"
	"github.com/cetpgen/cetpgen/gen/diff"
	"github.com/cetpgen/cetpgen/gen/ir"
	"github.com/spf13/cobra"
)

// init registers cetpgen diff with the command tree.
// diffOptions are the flags of cetpgen diff.
type diffOptions struct {
	format string
	config string
	mode   string
}

// newDiff builds the diff command.
func newDiff() *cobra.Command {
	var o diffOptions
	cmd := &cobra.Command{
		Use:   "diff OLD NEW",
		Short: "Review a spec change: breaking, dangerous and informational consequences",
		Long: "diff compares two versions of one Provider spec, each a spec directory or a git revision of one\n" +
			"(main:specs/alerts, HEAD~1:specs/alerts, read from the current directory's repository), tool by\n" +
			"tool and scope by scope, and prints a review report. Rules, severities and the config file\n" +
			"(" + diff.ConfigFile + ") are documented in docs/diff.md.\n" +
			"Exit codes: 0 no unacknowledged breaking or dangerous change, 1 such a change or an invalid spec,\n" +
			"2 usage or I/O error.",
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error { return runDiff(cmd, args, o) },
	}
	cmd.Flags().StringVar(&o.format, "format", "markdown", "report format: "+strings.Join(diff.Formats, ", "))
	cmd.Flags().StringVar(&o.mode, "mode", "", "contract mode: containment (every instance the old schema accepted) or declared (only declared members count; default, or the config's mode)")
	cmd.Flags().StringVar(&o.config, "config", "", "diff config file (default: "+diff.ConfigFile+" in the current directory, if present)")
	return cmd
}

// runDiff loads both sides, compares them and prints the report.
func runDiff(cmd *cobra.Command, args []string, o diffOptions) error {
	if !slices.Contains(diff.Formats, o.format) {
		return failure(fmt.Errorf("unknown --format %q (want one of %s)", o.format, strings.Join(diff.Formats, ", ")))
	}
	cfg, err := loadDiffConfig(o.config)
	var ce *configError
	if errors.As(err, &ce) {
		return ce.report(cmd.ErrOrStderr())
	}
	if err != nil {
		return failure(err)
	}
	mode, err := diffMode(o.mode, cfg)
	if err != nil {
		return failure(err)
	}
	old, new, err := loadSides(cmd, args, o.format)
	if err != nil {
		return err
	}
	r := diff.Compare(old, new, mode)
	r.Apply(cfg)
	if err := r.Write(cmd.OutOrStdout(), o.format); err != nil {
		return failure(err)
	}
	if r.Fails() {
		return invalid()
	}
	return nil
}

// diffMode picks the contract mode: the --mode flag, else the config's
// mode, else the default.
func diffMode(flag string, cfg *diff.Config) (diff.Mode, error) {
	if flag != "" {
		if !diff.ValidMode(flag) {
			return "", fmt.Errorf("unknown --mode %q (want containment or declared)", flag)
		}
		return diff.Mode(flag), nil
	}
	if cfg != nil && cfg.Mode != "" {
		return cfg.Mode, nil
	}
	return diff.DefaultMode, nil
}

// openSpec opens a spec directory on disk or in a git revision.
func openSpec(dir string) (fs.FS, error) {
	if diff.IsGitTree(dir) {
		return diff.GitFS(dir)
	}
	return gen.OSSource(dir)
}

// loadSides checks the old and the new side. Diagnostics of both sides
// are printed before an invalid side fails the run.
func loadSides(cmd *cobra.Command, args []string, format string) (old, new *ir.Provider, err error) {
	old, errOld := loadSide(cmd, args[0], format)
	new, errNew := loadSide(cmd, args[1], format)
	if err := cmp.Or(errOld, errNew); err != nil {
		return nil, nil, err
	}
	return old, new, nil
}

// loadSide checks one side and returns its Provider; an invalid spec
// prints its diagnostics and fails with exit code 1.
func loadSide(cmd *cobra.Command, arg, format string) (*ir.Provider, error) {
	providers, l, err := gen.Check(openSpec, []string{arg})
	if err != nil {
		return nil, failure(err)
	}
	if l.HasErrors() {
		if err := printDiagnostics(cmd.ErrOrStderr(), l, diagFormat(format)); err != nil {
			return nil, failure(err)
		}
		return nil, invalid()
	}
	if len(providers) != 1 {
		return nil, failure(fmt.Errorf("%s: expected one spec directory, found %d specs", arg, len(providers)))
	}
	return providers[0], nil
}

// diagFormat maps a report format to the diagnostics format that fits it.
func diagFormat(format string) string {
	if format == "json" || format == "github" {
		return format
	}
	return "text"
}

// loadDiffConfig reads the config named by --config, else the default
// file in the current directory when it exists.
func loadDiffConfig(path string) (*diff.Config, error) {
	explicit := path != ""
	if !explicit {
		path = diff.ConfigFile
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) && !explicit {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read diff config: %w", err)
	}
	return parseDiffConfig(path, data)
}
