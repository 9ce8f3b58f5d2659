package cetpcli

import (
	"github.com/cetpgen/cetpgen/runtime/buildversion"
	"strings"

	"github.com/cetpgen/cetpgen/runtime/cliout"
	"github.com/spf13/cobra"
)

// AnnotationCanonical is the cobra annotation that carries a command's
// canonical path; the catalog binder checks it against the registry.
const AnnotationCanonical = "cetp.schema/canonical_path"

// NewRoot builds the command tree of app: the schema command, and under
// the product one leaf per tool with its groups, aliases and flags. env
// serves the commands when they run; a zero Env is enough to build the
// tree (the generator builds it so, to bind the catalog).
func NewRoot(app *App, env Env) *cobra.Command {
	root := &cobra.Command{Use: app.Name, Short: app.Short, Long: app.Long,
		SilenceUsage: true, SilenceErrors: true, Version: buildversion.Line(app.Name)}
	root.SetVersionTemplate("{{.Version}}\n")
	root.PersistentFlags().String(SocketFlag, "", "path of the Provider's Unix socket (default $"+app.SocketEnv+")")
	root.PersistentFlags().Duration(TimeoutFlag, cliout.DefaultTimeout, cliout.TimeoutUsage)
	root.PersistentFlags().String(RequestIDFlag, "", "run the call under this request ID (a UUID; default: a new one). The ID a failed call printed, with the same arguments, resumes that call: the Provider answers with its stored outcome instead of running it again")
	root.AddCommand(schemaCommand(env.catalog()))
	r := &runner{app: app, env: env}
	for i := range app.Commands {
		r.add(root, &app.Commands[i])
	}
	return root
}

// add adds the leaf of c, and a cobra alias or a compatibility leaf for
// each of its aliases.
func (r *runner) add(root *cobra.Command, c *Command) {
	words := strings.Fields(c.Path)
	leaf := r.leaf(c, words[len(words)-1])
	group(root, r.app, words[:len(words)-1]).AddCommand(leaf)
	for _, a := range c.Aliases {
		aw := strings.Fields(a)
		if sameParent(words, aw) {
			leaf.Aliases = append(leaf.Aliases, aw[len(aw)-1])
			continue
		}
		group(root, r.app, aw[:len(aw)-1]).AddCommand(r.leaf(c, aw[len(aw)-1]))
	}
}

// sameParent reports whether two paths differ in their last word only.
func sameParent(a, b []string) bool {
	return len(a) == len(b) && strings.Join(a[:len(a)-1], " ") == strings.Join(b[:len(b)-1], " ")
}

// group returns the command at path below root, creating the missing
// group commands on the way.
func group(root *cobra.Command, app *App, path []string) *cobra.Command {
	cur := root
	for i, w := range path {
		next := findChild(cur, w)
		if next == nil {
			next = &cobra.Command{Use: w, Short: groupShort(app, path[:i+1])}
			cur.AddCommand(next)
		}
		cur = next
	}
	return cur
}

func findChild(c *cobra.Command, name string) *cobra.Command {
	for _, s := range c.Commands() {
		if s.Name() == name {
			return s
		}
	}
	return nil
}

// groupShort is the help of a group: the product's own, else its path.
func groupShort(app *App, path []string) string {
	if len(path) == 1 && path[0] == app.Product {
		return app.ProductShort
	}
	return "Commands under " + strings.Join(path, " ")
}

// leaf builds the command named name that calls c's tool, with its flags
// and the --json escape.
func (r *runner) leaf(c *Command, name string) *cobra.Command {
	cmd := &cobra.Command{Use: name, Short: c.Short, Long: c.Long, Args: cobra.NoArgs,
		Annotations: map[string]string{AnnotationCanonical: c.Canonical}}
	values := make([]*value, len(c.Flags))
	for i := range c.Flags {
		values[i] = addFlag(cmd, &c.Flags[i])
	}
	cmd.Flags().String(JSONFlag, "", jsonUsage)
	cmd.RunE = func(cmd *cobra.Command, _ []string) error { return r.run(cmd, c, values) }
	return cmd
}

// jsonUsage is the help of the --json flag.
const jsonUsage = "the whole args object as JSON (- reads it from stdin); flags given beside it set their properties over it"

// addFlag adds f to cmd and returns its value.
func addFlag(cmd *cobra.Command, f *Flag) *value {
	v := newValue(f)
	pf := cmd.Flags().VarPF(v, f.Name, "", f.Usage)
	if f.Kind == Boolean && !f.List {
		pf.NoOptDefVal = "true"
	}
	return v
}
