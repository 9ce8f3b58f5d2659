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
	// Flags are ToolFlags(Command), computed once while binding: cobra
	// builds flag sets the first time they are asked for, so the stages
	// after the binder, which read them in parallel, only read the tree.
	Flags []ToolFlag
}

// BoundRegistry is the effective registry bound to a cobra tree.
type BoundRegistry struct {
	Root        *cobra.Command
	Effective   *EffectiveRegistry
	Commands    []BoundCommand // canonical order
	Exclusions  []Exclusion
	ByCanonical map[string]*BoundCommand
	// Builtins are the commands Cobra itself added to the tree (help, and
	// completion with its shell subcommands): not part of the CLI's
	// surface, so neither bound nor walked.
	Builtins map[*cobra.Command]bool
}

// resolved is the result of walking one path in the cobra tree.
type resolved struct {
	cmd       *cobra.Command
	usedAlias bool
}

// resolvePath walks root by exact names, then by exact cobra aliases; no
// prefix matching.
func resolvePath(root *cobra.Command, path string) (resolved, error) {
	return subcommands(nil).resolvePath(root, path)
}

// subcommands indexes, for each command looked into, its subcommands by
// name and by alias, so that binding a registry of n commands under one
// parent does not scan its n children n times. A nil index scans.
type subcommands map[*cobra.Command]*subcommandIndex

// subcommandIndex holds the subcommands of one command by name and by
// alias, in the order of Commands().
type subcommandIndex struct {
	byName, byAlias map[string][]*cobra.Command
}

// resolvePath is resolvePath through the index k.
func (k subcommands) resolvePath(root *cobra.Command, path string) (resolved, error) {
	cur, r := root, resolved{}
	for _, tok := range strings.Fields(path) {
		next, alias, err := k.child(cur, tok)
		if err != nil {
			return r, fmt.Errorf("path %q: %w", path, err)
		}
		cur, r.usedAlias = next, r.usedAlias || alias
	}
	r.cmd = cur
	return r, nil
}

// child finds the subcommand tok of c: the one so named, else the one
// with that cobra alias.
func (k subcommands) child(c *cobra.Command, tok string) (*cobra.Command, bool, error) {
	byName, byAlias := k.lookup(c, tok)
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

// lookup returns the subcommands of c named tok and those, otherwise
// named, with the alias tok. Without an index, or when cobra matches
// names case-insensitively, it scans them.
func (k subcommands) lookup(c *cobra.Command, tok string) (byName, byAlias []*cobra.Command) {
	if k == nil || cobra.EnableCaseInsensitive {
		for _, s := range c.Commands() {
			if s.Name() == tok {
				byName = append(byName, s)
			} else if s.HasAlias(tok) {
				byAlias = append(byAlias, s)
			}
		}
		return byName, byAlias
	}
	idx := k[c]
	if idx == nil {
		idx = &subcommandIndex{byName: map[string][]*cobra.Command{}, byAlias: map[string][]*cobra.Command{}}
		for _, s := range c.Commands() {
			name := s.Name()
			idx.byName[name] = append(idx.byName[name], s)
			for _, a := range s.Aliases {
				if list := idx.byAlias[a]; a != name && (len(list) == 0 || list[len(list)-1] != s) {
					idx.byAlias[a] = append(list, s)
				}
			}
		}
		k[c] = idx
	}
	return idx.byName[tok], idx.byAlias[tok]
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
// public runnable leaf is bound or excluded. Every mismatch is reported,
// each with its exact path, sorted, in one error.
func Bind(e *EffectiveRegistry, root *cobra.Command, exclusions []Exclusion) (*BoundRegistry, error) {
	b := &BoundRegistry{Root: root, Effective: e, Exclusions: exclusions, ByCanonical: map[string]*BoundCommand{},
		Builtins: completeTree(root)}
	var problems []string
	k := subcommands{}
	for i := range e.Commands {
		bc, err := bindOne(k, root, &e.Commands[i], b.Builtins)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		b.Commands = append(b.Commands, bc)
	}
	for i := range b.Commands {
		b.ByCanonical[b.Commands[i].Spec.CanonicalPath] = &b.Commands[i]
	}
	if err := checkCompleteness(b); err != nil {
		problems = append(problems, err.Error())
	}
	if len(problems) > 0 {
		sort.Strings(problems)
		return nil, fmt.Errorf("binder: %d problem(s): %s", len(problems), strings.Join(problems, "; "))
	}
	return b, nil
}

func bindOne(k subcommands, root *cobra.Command, c *CommandSpec, builtins map[*cobra.Command]bool) (BoundCommand, error) {
	r, err := k.resolvePath(root, c.CLIPath)
	if err != nil {
		return BoundCommand{}, fmt.Errorf("%s: phantom or stale primary path: %w", c.CanonicalPath, err)
	}
	if builtins[r.cmd] {
		return BoundCommand{}, fmt.Errorf("%s: %q is a Cobra built-in command, not a tool of the CLI", c.CanonicalPath, c.CLIPath)
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
		if err := bindAlias(k, root, c, r.cmd, a); err != nil {
			return BoundCommand{}, err
		}
	}
	return BoundCommand{Spec: c, Command: r.cmd, Flags: ToolFlags(r.cmd)}, nil
}

// bindAlias checks that alias reaches the primary leaf through a cobra
// alias, or a separate leaf with the same flag contract.
func bindAlias(k subcommands, root *cobra.Command, c *CommandSpec, primary *cobra.Command, alias string) error {
	r, err := k.resolvePath(root, alias)
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

// flagContract summarises the flags c accepts as a tool (its own and those
// it inherits below the root, see ToolFlags): names, types, defaults and
// required marks.
func flagContract(c *cobra.Command) string {
	var rows []string
	for _, tf := range ToolFlags(c) {
		f := tf.Flag
		rows = append(rows, fmt.Sprintf("%s|%s|%s|%v|%v", f.Name, f.Value.Type(), f.DefValue, hardRequired(f), f.Hidden))
	}
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
// runnable, no subcommands, no hidden command on its path, and not one of
// builtins (the commands Cobra added itself, which dws's walk never sees).
func PublicLeaves(root *cobra.Command, builtins map[*cobra.Command]bool) []string {
	var out []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, s := range c.Commands() {
			if s.Hidden || builtins[s] {
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
// tree executes, so that the binder sees the tree users see, and returns
// the commands cobra added: a CLI's own `help` or `completion` command
// (dws has a `completion` leaf of its own) stops cobra from adding its
// default and is an ordinary command of the CLI.
func completeTree(root *cobra.Command) map[*cobra.Command]bool {
	before := map[*cobra.Command]bool{}
	for _, c := range root.Commands() {
		before[c] = true
	}
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	added := map[*cobra.Command]bool{}
	var mark func(c *cobra.Command)
	mark = func(c *cobra.Command) {
		added[c] = true
		for _, s := range c.Commands() {
			mark(s)
		}
	}
	for _, c := range root.Commands() {
		if !before[c] {
			mark(c)
		}
	}
	return added
}

// ToolFlag is one flag a tool accepts, with its provenance in the tree.
type ToolFlag struct {
	Flag *pflag.Flag
	// From is the path (below the root) of the ancestor whose persistent
	// flag this is, or "" for the command's own flag.
	From string
}

// ToolFlags returns the flags of c that belong in its schema, sorted by
// name: its own flags and the persistent flags it inherits from ancestors
// below the root (Cobra accepts both on the leaf), without Cobra's help
// flag. The root's persistent flags are the CLI's global options (output
// format, connection), shared by every command and not parameters of any
// tool; dws's leaves do not list them either. Hidden flags are included
// (marked Hidden); the resolver leaves them out of the parameters.
func ToolFlags(c *cobra.Command) []ToolFlag {
	seen := map[string]bool{}
	var out []ToolFlag
	c.LocalFlags().VisitAll(func(f *pflag.Flag) {
		if f.Name != "help" && !seen[f.Name] {
			seen[f.Name] = true
			out = append(out, ToolFlag{Flag: f})
		}
	})
	for p := c.Parent(); p != nil && p.HasParent(); p = p.Parent() {
		p.PersistentFlags().VisitAll(func(f *pflag.Flag) {
			if f.Name != "help" && !seen[f.Name] {
				seen[f.Name] = true
				out = append(out, ToolFlag{Flag: f, From: CommandPath(p)})
			}
		})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Flag.Name < out[j].Flag.Name })
	return out
}
