package catalog

import (
	"fmt"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// AnnotationCanonical is the optional native identity annotation of a cobra
// command: when present it must equal the bound canonical path exactly.
const AnnotationCanonical = "cetp.schema/canonical_path"

// BoundCommand is a registry command bound to its live cobra leaf.
type BoundCommand struct {
	Spec    *CommandSpec
	Command *cobra.Command
}

// BoundRegistry is the effective registry bound to a cobra tree.
type BoundRegistry struct {
	Root        *cobra.Command
	Effective   *EffectiveRegistry
	Commands    []BoundCommand // canonical order
	Exclusions  []Exclusion
	ByCanonical map[string]*BoundCommand
}

// resolved is the result of walking one path in the cobra tree.
type resolved struct {
	cmd       *cobra.Command
	usedAlias bool
}

// resolvePath walks root by exact names, then by exact cobra aliases; no
// prefix matching.
func resolvePath(root *cobra.Command, path string) (resolved, error) {
	cur, r := root, resolved{}
	for _, tok := range strings.Fields(path) {
		next, alias, err := child(cur, tok)
		if err != nil {
			return r, fmt.Errorf("path %q: %w", path, err)
		}
		cur, r.usedAlias = next, r.usedAlias || alias
	}
	r.cmd = cur
	return r, nil
}

func child(c *cobra.Command, tok string) (*cobra.Command, bool, error) {
	var byName, byAlias []*cobra.Command
	for _, s := range c.Commands() {
		if s.Name() == tok {
			byName = append(byName, s)
		} else if s.HasAlias(tok) {
			byAlias = append(byAlias, s)
		}
	}
	switch {
	case len(byName) == 1:
		return byName[0], false, nil
	case len(byName) > 1 || len(byAlias) > 1:
		return nil, false, fmt.Errorf("%q is ambiguous under %q", tok, c.CommandPath())
	case len(byAlias) == 1:
		return byAlias[0], true, nil
	}
	return nil, false, fmt.Errorf("no command %q under %q", tok, c.CommandPath())
}

// runnableLeaf reports whether c is a runnable command with no subcommands.
func runnableLeaf(c *cobra.Command) bool {
	return c.Runnable() && !c.HasAvailableSubCommands() && len(c.Commands()) == 0
}

// hiddenPath reports whether c or one of its ancestors is hidden.
func hiddenPath(c *cobra.Command) bool {
	for ; c != nil; c = c.Parent() {
		if c.Hidden {
			return true
		}
	}
	return false
}

// Bind binds every effective command to its cobra leaf and checks that every
// public runnable leaf is bound or excluded.
func Bind(e *EffectiveRegistry, root *cobra.Command, exclusions []Exclusion) (*BoundRegistry, error) {
	completeTree(root)
	b := &BoundRegistry{Root: root, Effective: e, Exclusions: exclusions, ByCanonical: map[string]*BoundCommand{}}
	for i := range e.Commands {
		bc, err := bindOne(root, &e.Commands[i])
		if err != nil {
			return nil, err
		}
		b.Commands = append(b.Commands, bc)
	}
	for i := range b.Commands {
		b.ByCanonical[b.Commands[i].Spec.CanonicalPath] = &b.Commands[i]
	}
	return b, checkCompleteness(b)
}

func bindOne(root *cobra.Command, c *CommandSpec) (BoundCommand, error) {
	r, err := resolvePath(root, c.CLIPath)
	if err != nil {
		return BoundCommand{}, fmt.Errorf("%s: phantom or stale primary path: %w", c.CanonicalPath, err)
	}
	if r.usedAlias {
		return BoundCommand{}, fmt.Errorf("%s: primary path %q goes through a cobra alias; use the command names", c.CanonicalPath, c.CLIPath)
	}
	if !runnableLeaf(r.cmd) {
		return BoundCommand{}, fmt.Errorf("%s: %q is not a runnable leaf", c.CanonicalPath, c.CLIPath)
	}
	if c.Source == SourceManual && hiddenPath(r.cmd) {
		return BoundCommand{}, fmt.Errorf("%s: manual addition %q is hidden", c.CanonicalPath, c.CLIPath)
	}
	if v, ok := r.cmd.Annotations[AnnotationCanonical]; ok && v != c.CanonicalPath {
		return BoundCommand{}, fmt.Errorf("%s: native annotation of %q says %q", c.CanonicalPath, c.CLIPath, v)
	}
	for _, a := range c.Aliases {
		if err := bindAlias(root, c, r.cmd, a); err != nil {
			return BoundCommand{}, err
		}
	}
	return BoundCommand{Spec: c, Command: r.cmd}, nil
}

// bindAlias checks that alias reaches the primary leaf through a cobra
// alias, or a separate leaf with the same flag contract.
func bindAlias(root *cobra.Command, c *CommandSpec, primary *cobra.Command, alias string) error {
	r, err := resolvePath(root, alias)
	if err != nil {
		return fmt.Errorf("%s: phantom alias: %w", c.CanonicalPath, err)
	}
	switch {
	case !runnableLeaf(r.cmd):
		return fmt.Errorf("%s: alias %q is not a runnable leaf", c.CanonicalPath, alias)
	case r.cmd == primary && !r.usedAlias:
		return fmt.Errorf("%s: alias %q duplicates the primary path", c.CanonicalPath, alias)
	case r.cmd == primary:
		return nil
	case r.usedAlias:
		return fmt.Errorf("%s: alias %q is a cobra alias of another command (%s)", c.CanonicalPath, alias, r.cmd.CommandPath())
	}
	if got, want := flagContract(r.cmd), flagContract(primary); got != want {
		return fmt.Errorf("%s: compatibility leaf %q has another flag contract than %q", c.CanonicalPath, alias, c.CLIPath)
	}
	return nil
}

// flagContract summarises the accepted flags of c: names, types, defaults
// and required marks.
func flagContract(c *cobra.Command) string {
	var rows []string
	c.LocalFlags().VisitAll(func(f *pflag.Flag) {
		rows = append(rows, fmt.Sprintf("%s|%s|%s|%v", f.Name, f.Value.Type(), f.DefValue, hardRequired(f)))
	})
	sort.Strings(rows)
	return strings.Join(rows, "\n")
}

func hardRequired(f *pflag.Flag) bool {
	v := f.Annotations[cobra.BashCompOneRequiredFlag]
	return len(v) == 1 && v[0] == "true"
}

// CommandPath is the path of c below root, without the root name.
func CommandPath(c *cobra.Command) string {
	var parts []string
	for ; c != nil && c.HasParent(); c = c.Parent() {
		parts = append([]string{c.Name()}, parts...)
	}
	return strings.Join(parts, " ")
}

// PublicLeaves returns the path of every public runnable leaf below root:
// runnable, no subcommands, no hidden command on its path.
func PublicLeaves(root *cobra.Command) []string {
	var out []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, s := range c.Commands() {
			if s.Hidden {
				continue
			}
			if runnableLeaf(s) {
				out = append(out, CommandPath(s))
			}
			walk(s)
		}
	}
	walk(root)
	sort.Strings(out)
	return out
}

// completeTree adds the help and completion commands cobra adds when the
// tree executes, so that the binder sees the tree users see.
func completeTree(root *cobra.Command) {
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
}
