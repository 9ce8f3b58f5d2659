package catalog

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/spf13/cobra"
)

// NewCommand returns the `schema [path]` command a CLI adds to its root.
// open is called only when the command runs (use Lazy). Payloads go to
// stdout; a failed query, a wrong argument count or an unknown flag
// prints its structured error as JSON on stderr, as dws does, and returns
// it as a *QueryError (its ExitCode is dws's exit status). The command
// silences cobra's own error and usage output, so that stderr holds the
// JSON error alone.
func NewCommand(open func() (*Catalog, error)) *cobra.Command {
	var q Query
	cmd := &cobra.Command{
		Use:   "schema [path]",
		Short: "Print the Agent schema of this CLI's commands",
		Long: "schema prints the versioned Agent contract of the commands of this binary, from its embedded catalog.\n" +
			"Query progressively: `schema` (products), `schema <product>`, `schema \"<product> <group>\"`, then\n" +
			"`schema \"<command path>\"` or a canonical path for one full leaf. A multi-word path is one quoted\n" +
			"argument. --compact drops provenance and debug keys; --all exports every leaf (audits and CI only).",
		SilenceErrors: true,
		SilenceUsage:  true,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return printed(cmd, commandLineError(fmt.Sprintf("accepts at most 1 arg(s), received %d", len(args))))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				q.Path = args[0]
			}
			q.Root = cmd.Root().Name()
			return run(cmd, open, q)
		},
	}
	cmd.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return printed(cmd, commandLineError(err.Error()))
	})
	cmd.Flags().BoolVar(&q.All, "all", false, "export the full leaf of every tool")
	cmd.Flags().BoolVar(&q.Compact, "compact", false, "drop provenance, debug and interface mapping keys")
	cmd.Flags().StringVar(&q.CLIPath, "cli-path", "", "resolve exactly this CLI path (primary or alias), else as a path")
	return cmd
}

func run(cmd *cobra.Command, open func() (*Catalog, error), q Query) error {
	c, err := open()
	if err != nil {
		return err
	}
	err = c.Write(cmd.OutOrStdout(), q)
	var qe *QueryError
	if errors.As(err, &qe) {
		return printed(cmd, qe)
	}
	return err
}

// printed writes qe as indented JSON on stderr and returns it.
func printed(cmd *cobra.Command, qe *QueryError) error {
	b, _ := json.MarshalIndent(qe, "", "  ")
	cmd.ErrOrStderr().Write(append(unescapeHTML(b), '\n'))
	return qe
}
