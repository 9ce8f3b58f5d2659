package synth

import (
	"fmt"
	"strings"

	"github.com/cetpgen/cetpgen/runtime/catalog"
	"github.com/spf13/cobra"
)

// Shape of the tree: products x groups x verbs leaves.
const (
	groupsPerProduct = 5
	verbsPerGroup    = 8
)

var verbs = []string{"list", "get", "create", "update", "delete", "search", "export", "share"}

// Leaf identifies one synthetic leaf.
type Leaf struct {
	Product, Group, Verb string
	N                    int
}

// Path is the leaf's CLI path.
func (l Leaf) Path() string { return l.Product + " " + l.Group + " " + l.Verb }

// Canonical is the leaf's canonical path.
func (l Leaf) Canonical() string { return l.Product + "." + l.Verb + "_" + l.Group }

// Leaves returns n leaves in tree order.
func Leaves(n int) []Leaf {
	var out []Leaf
	for i := 0; len(out) < n; i++ {
		p := fmt.Sprintf("prod%02d", i/(groupsPerProduct*verbsPerGroup))
		g := fmt.Sprintf("group%d", i/verbsPerGroup%groupsPerProduct)
		out = append(out, Leaf{Product: p, Group: g, Verb: verbs[i%verbsPerGroup], N: i})
	}
	return out
}

// Root builds the cobra tree of n leaves, plus version and schema (whose
// catalog is never opened).
func Root(n int) *cobra.Command {
	return RootWith(n, func() (*catalog.Catalog, error) { return nil, fmt.Errorf("unused") })
}

// RootWith builds the tree of n leaves whose schema command serves open.
func RootWith(n int, open func() (*catalog.Catalog, error)) *cobra.Command {
	root := &cobra.Command{Use: "synth", Short: "Synthetic workspace CLI"}
	nodes := map[string]*cobra.Command{}
	for _, l := range Leaves(n) {
		parent := node(root, nodes, l.Product, "Product "+l.Product+": documents, records and sharing")
		parent = node(parent, nodes, l.Product+" "+l.Group, "Group "+l.Group)
		parent.AddCommand(leafCmd(l))
	}
	root.AddCommand(&cobra.Command{Use: "version", Short: "Print the version", Run: noop},
		catalog.NewCommand(open))
	root.CompletionOptions.DisableDefaultCmd = true
	return root
}

func noop(*cobra.Command, []string) {}

func node(parent *cobra.Command, nodes map[string]*cobra.Command, key, short string) *cobra.Command {
	if c, ok := nodes[key]; ok {
		return c
	}
	c := &cobra.Command{Use: key[strings.LastIndex(key, " ")+1:], Short: short}
	parent.AddCommand(c)
	nodes[key] = c
	return c
}

// flagNames are the flags of a leaf; leaf i has 2 + i%4 of them plus one
// in 8 leaves with all 12, 4.4 on average (the real dws: 3.6 on average,
// 27 at most).
var flagNames = []string{"id", "title", "start", "end", "size", "cursor", "tags", "dry-run", "owner-ids", "format", "note", "level"}

func leafCmd(l Leaf) *cobra.Command {
	c := &cobra.Command{Use: l.Verb, Short: fmt.Sprintf("%s a %s of %s", l.Verb, l.Group, l.Product), Run: noop,
		Long: fmt.Sprintf("%s one %s in product %s. The command talks to the pinned remote tool and prints JSON; "+
			"pass ids returned by the list command and ISO-8601 times with offsets. Results are paged with --cursor.",
			l.Verb, l.Group, l.Product)}
	for _, name := range flagsOf(l) {
		addFlag(c, name)
	}
	if l.Verb == "create" {
		_ = c.MarkFlagRequired("title")
	}
	return c
}

func addFlag(c *cobra.Command, name string) {
	f := c.Flags()
	switch name {
	case "size":
		f.Int(name, 20, "page size (default 20, at most 100)")
	case "dry-run":
		f.Bool(name, false, "print the request instead of sending it")
	case "tags", "owner-ids":
		f.StringSlice(name, nil, "comma-separated list of "+name)
	case "level":
		f.Int(name, 0, "nesting level")
	default:
		f.String(name, "", name+" of the item (see the list command for valid values)")
	}
}

// flagsOf returns the flag names of l.
func flagsOf(l Leaf) []string {
	if l.N%8 == 7 {
		return flagNames
	}
	return flagNames[:2+l.N%4]
}
