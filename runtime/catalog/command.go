package catalog

import (
	"encoding/json"
	"errors"

	"github.com/spf13/cobra"
)

// NewCommand returns the `schema [path]` command a CLI adds to its root.
// open is called only when the command runs (use Lazy). A failed query
// prints its structured error as JSON on stdout and returns it.
func NewCommand(open func() (*Catalog, error)) *cobra.Command {
	var q Query
	cmd := &cobra.Command{
		Use:   "schema [path]",
		Short: "Print the Agent schema of this CLI's commands",
		Long: "schema prints the versioned Agent contract of the commands of this binary, from its embedded catalog.\n" +
			"Query progressively: `schema` (products), `schema <product>`, `schema \"<product> <group>\"`, then\n" +
			"`schema \"<command path>\"` or a canonical path for one full leaf. A multi-word path is one quoted\n" +
			"argument. --compact drops provenance and debug keys; --all exports every leaf (audits and CI only).",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				q.Path = args[0]
			}
			return run(cmd, open, q)
		},
	}
	cmd.Flags().BoolVar(&q.All, "all", false, "export the full leaf of every tool")
	cmd.Flags().BoolVar(&q.Compact, "compact", false, "drop provenance, debug and interface mapping keys")
	cmd.Flags().StringVar(&q.CLIPath, "cli-path", "", "resolve exactly this CLI path (primary or alias)")
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
		b, _ := json.MarshalIndent(qe, "", "  ")
		cmd.OutOrStdout().Write(append(b, '\n'))
	}
	return err
}
