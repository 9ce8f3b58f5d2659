package app

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/cetpgen/cetpgen/runtime/catalog"
	"github.com/spf13/cobra"
)

// Inputs are the reviewed dws files the tree is reconstructed from.
type Inputs struct {
	Registry, Bindings, Exclusions []byte
}

// source is what the tree needs from the inputs.
type source struct {
	Products []struct {
		ID    string `json:"id"`
		Tools []struct {
			CanonicalPath string   `json:"canonical_path"`
			CLIPath       string   `json:"cli_path"`
			Aliases       []string `json:"aliases"`
		} `json:"tools"`
	} `json:"products"`
	Bindings          map[string]map[string]string `json:"bindings"`
	MappingExclusions map[string]string            `json:"mapping_exclusions"`
	Removals          map[string]struct {
		Reason string `json:"reason"`
	} `json:"removals"`
	Groups []struct {
		Commands []string `json:"commands"`
	} `json:"groups"`
}

// leafSpec is one leaf to build: its path, flags (name -> hidden) and
// Cobra aliases.
type leafSpec struct {
	path    string
	flags   map[string]bool
	aliases []string
}

// NewRoot builds the dws tree from in, with the schema command answering
// from open.
func NewRoot(in Inputs, open func() (*catalog.Catalog, error)) (*cobra.Command, error) {
	var src source
	for _, b := range [][]byte{in.Registry, in.Bindings, in.Exclusions} {
		if err := json.Unmarshal(b, &src); err != nil {
			return nil, fmt.Errorf("dws inputs: %w", err)
		}
	}
	tree := &node{children: map[string]*node{}}
	for _, l := range src.leaves() {
		tree.add(l)
	}
	tree.hoist()
	root := &cobra.Command{Use: "dws", Short: "DingTalk Workspace CLI (reconstructed from its reviewed inputs)",
		SilenceErrors: true, SilenceUsage: true}
	root.PersistentFlags().StringP("format", "f", "json", "output format: json, table, raw")
	root.PersistentFlags().String("jq", "", "jq expression applied to the JSON output")
	root.PersistentFlags().String("fields", "", "comma-separated fields to keep in the output")
	tree.build(root, "", open)
	return root, nil
}

// node is one command of the tree before it is built: a group with
// children, or a leaf. persistent are the flags declared on a group for
// all the leaves below it.
type node struct {
	children   map[string]*node
	leaf       *leafSpec
	persistent []string
}

func (n *node) add(l leafSpec) {
	cur := n
	for _, w := range strings.Fields(l.path) {
		next := cur.children[w]
		if next == nil {
			next = &node{children: map[string]*node{}}
			cur.children[w] = next
		}
		cur = next
	}
	cur.leaf = &l
}

// leaves returns the leaves at or below n.
func (n *node) leaves() []*leafSpec {
	if n.leaf != nil {
		return []*leafSpec{n.leaf}
	}
	var out []*leafSpec
	for _, k := range slices.Sorted(maps.Keys(n.children)) {
		out = append(out, n.children[k].leaves()...)
	}
	return out
}

// hoist declares once, on a group below the root, every visible flag that
// all of its leaves (two or more) have, as a persistent flag they inherit:
// the shape of dws's product and group flags. Outer groups hoist first.
func (n *node) hoist() {
	for _, k := range slices.Sorted(maps.Keys(n.children)) {
		c := n.children[k]
		if c.leaf == nil {
			c.hoistHere()
			c.hoist()
		}
	}
}

func (n *node) hoistHere() {
	leaves := n.leaves()
	if len(leaves) < 2 {
		return
	}
	count := map[string]int{}
	for _, l := range leaves {
		for f, hidden := range l.flags {
			if !hidden {
				count[f]++
			}
		}
	}
	for _, f := range slices.Sorted(maps.Keys(count)) {
		if count[f] != len(leaves) {
			continue
		}
		n.persistent = append(n.persistent, f)
		for _, l := range leaves {
			delete(l.flags, f)
		}
	}
}

// build adds the cobra commands of n's children to c.
func (n *node) build(c *cobra.Command, path string, open func() (*catalog.Catalog, error)) {
	for _, name := range slices.Sorted(maps.Keys(n.children)) {
		child, p := n.children[name], strings.TrimPrefix(path+" "+name, " ")
		if p == "schema" {
			c.AddCommand(catalog.NewCommand(open))
			continue
		}
		cmd := &cobra.Command{Use: name, Short: "dws " + p}
		for _, f := range child.persistent {
			cmd.PersistentFlags().String(f, "", "--"+f+" of every command under dws "+p)
		}
		if l := child.leaf; l != nil {
			cmd.Aliases, cmd.RunE = l.aliases, notRun
			for _, f := range slices.Sorted(maps.Keys(l.flags)) {
				cmd.Flags().String(f, "", "--"+f+" of dws "+p)
				cmd.Flags().Lookup(f).Hidden = l.flags[f]
			}
		}
		c.AddCommand(cmd)
		child.build(cmd, p, open)
	}
}

// leaves returns every leaf of the tree in path order: registry primary
// paths and compatibility aliases (with the flags of their tool),
// exclusions (without flags). An alias that differs from its primary path
// in the last word only is a Cobra alias instead.
func (s *source) leaves() []leafSpec {
	byPath := map[string]*leafSpec{}
	add := func(path string, flags map[string]bool) *leafSpec {
		l := &leafSpec{path: path, flags: flags}
		byPath[path] = l
		return l
	}
	for _, p := range s.Products {
		for _, t := range p.Tools {
			flags := s.flagsOf(t.CanonicalPath)
			l := add(t.CLIPath, flags)
			for _, a := range t.Aliases {
				if parentPath(a) == parentPath(t.CLIPath) {
					l.aliases = append(l.aliases, lastWord(a))
				} else {
					add(a, flags)
				}
			}
		}
	}
	for _, g := range s.Groups {
		for _, c := range g.Commands {
			if byPath[c] == nil {
				add(c, map[string]bool{})
			}
		}
	}
	var out []leafSpec
	for _, p := range slices.Sorted(maps.Keys(byPath)) {
		out = append(out, *byPath[p])
	}
	return out
}

// flagsOf returns the flags of a tool: bound, excluded from mapping, and
// removed bindings whose reason says the flag stayed as a hidden one.
func (s *source) flagsOf(canonical string) map[string]bool {
	flags := map[string]bool{}
	for f := range s.Bindings[canonical] {
		flags[f] = false
	}
	for key := range s.MappingExclusions {
		if c, f, ok := strings.Cut(key, " --"); ok && c == canonical {
			flags[f] = false
		}
	}
	for key, r := range s.Removals {
		if c, f, ok := strings.Cut(key, " --"); ok && c == canonical && strings.Contains(r.Reason, "hidden") {
			flags[f] = true
		}
	}
	return flags
}

// notRun is the Run of every reconstructed leaf: the tree exists to be
// described, not executed.
func notRun(cmd *cobra.Command, _ []string) error {
	return fmt.Errorf("%s: the reconstructed dws tree only describes commands", cmd.CommandPath())
}

func lastWord(p string) string { return p[strings.LastIndex(p, " ")+1:] }

func parentPath(p string) string {
	if i := strings.LastIndex(p, " "); i >= 0 {
		return p[:i]
	}
	return ""
}
