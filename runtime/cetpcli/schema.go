package cetpcli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/cetpgen/cetpgen/runtime/catalog"
	"github.com/spf13/cobra"
)

// schemaCommand is the schema command of a generated CLI: the catalog's
// own (runtime/catalog.NewCommand: its help and flags), with the CLI's
// rules for the command line. Every failure is a usage error in the shape
// and on the stream of a call's (cliout), an unknown path with the paths
// near it; the words of an unquoted path are one path (`schema fitness
// workout log` is `schema "fitness workout log"`); the product rule of
// catalog.PathAsMeant reads the path.
func schemaCommand(open func() (*catalog.Catalog, error)) *cobra.Command {
	cmd := catalog.NewCommand(open)
	cmd.Long = strings.Replace(cmd.Long, "A multi-word path is one quoted\nargument.",
		"The words of a path may be\nquoted as one argument or not.", 1)
	cmd.Args = cobra.ArbitraryArgs
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usagef("schema: %v", err) })
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		q := catalog.Query{Path: strings.Join(args, " "), Root: cmd.Root().Name()}
		q.All, _ = cmd.Flags().GetBool("all")
		q.Compact, _ = cmd.Flags().GetBool("compact")
		q.CLIPath, _ = cmd.Flags().GetString("cli-path")
		c, err := open()
		if err != nil {
			return fmt.Errorf("schema: the embedded catalog: %w", err)
		}
		err = c.Write(cmd.OutOrStdout(), q)
		var qe *catalog.QueryError
		if errors.As(err, &qe) {
			return usagef("schema: %s%s", qe.Message, didYouMean(c.Suggest(qe.Unknown)))
		}
		return err
	}
	return cmd
}

// didYouMean is "; did you mean "a", "b" or "c"?", or "" without
// suggestions.
func didYouMean(paths []string) string {
	if len(paths) == 0 {
		return ""
	}
	q := make([]string, len(paths))
	for i, p := range paths {
		q[i] = fmt.Sprintf("%q", p)
	}
	if len(q) == 1 {
		return "; did you mean " + q[0] + "?"
	}
	return "; did you mean " + strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1] + "?"
}
