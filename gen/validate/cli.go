package validate

import (
	"slices"
	"sort"
	"strings"

	"github.com/cetpgen/cetpgen/gen/diag"
	"github.com/cetpgen/cetpgen/gen/spec"
)

// builtinCommands are the generated CLI's own commands, which no product
// may shadow.
var builtinCommands = []string{"completion", "help", "schema"}

// cliEntry is one command path of a tool: its cli.path, the default path
// its name gives when there is none, or an alias.
type cliEntry struct {
	path, tool string
	doc        *spec.Doc
	ptr        string
	explicit   bool
}

// cliRules checks the command paths of the generated Consumer CLI: the
// product is not a built-in command, every path is the product and at
// least one more word, no path repeats, and no path is also a group of
// another (a command cannot be both a leaf and a group). Default paths
// ("<product> <tool words>") count, reported at the tool's name.
func cliRules(set *spec.Set, p *spec.Provider, tools []*spec.Tool) diag.List {
	var l diag.List
	product := cliProduct(set, p)
	if slices.Contains(builtinCommands, product) {
		l.Errorf(set.Provider.Pos(productPtr(p)), "cli-product-builtin",
			"the CLI product %q would shadow the generated CLI's own %q command; set another cli.product", product, product)
	}
	var shaped []cliEntry // paths of a bad shape are reported once, not again as conflicts
	for _, e := range cliEntries(set, tools, product) {
		if bad := pathShape(e, product); len(bad) > 0 {
			l.Add(bad...)
			continue
		}
		shaped = append(shaped, e)
	}
	l.Add(duplicatePaths(shaped)...)
	return append(l, groupConflicts(shaped)...)
}

// cliProduct is cli.product, or the spec directory's slug.
func cliProduct(set *spec.Set, p *spec.Provider) string {
	if p.CLI != nil && p.CLI.Product != "" {
		return p.CLI.Product
	}
	return spec.Slug(set.Dir)
}

// productPtr points at cli.product, or at the provider id when the product
// comes from the directory name.
func productPtr(p *spec.Provider) string {
	if p.CLI != nil && p.CLI.Product != "" {
		return "/cli/product"
	}
	return "/provider/id"
}

// cliEntries lists every command path of every tool, in file order.
func cliEntries(set *spec.Set, tools []*spec.Tool, product string) []cliEntry {
	var out []cliEntry
	for i, t := range tools {
		if t == nil {
			continue
		}
		doc := set.Tools[i]
		if t.CLI != nil && t.CLI.Path != "" {
			out = append(out, cliEntry{t.CLI.Path, t.Name, doc, "/cli/path", true})
		} else {
			words := strings.FieldsFunc(t.Name, func(r rune) bool { return r == '_' })
			out = append(out, cliEntry{strings.Join(append([]string{product}, words...), " "), t.Name, doc, "/name", false})
		}
		if t.CLI == nil {
			continue
		}
		for j, a := range t.CLI.Aliases {
			out = append(out, cliEntry{a, t.Name, doc, spec.Pointer("cli", "aliases", itoa(j)), true})
		}
	}
	return out
}

// pathShape checks that an explicit path starts with the product and has
// a command word after it.
func pathShape(e cliEntry, product string) diag.List {
	var l diag.List
	if e.explicit && e.path != "" && (firstWord(e.path) != product || len(strings.Fields(e.path)) < 2) {
		l.Errorf(e.doc.Pos(e.ptr), "cli-path-product", "command path %q must be the product %q and at least one more word", e.path, product)
	}
	return l
}

// duplicatePaths reports every path used a second time.
func duplicatePaths(entries []cliEntry) diag.List {
	var l diag.List
	owner := map[string]string{}
	for _, e := range entries {
		if prev, dup := owner[e.path]; dup && e.path != "" {
			l.Errorf(e.doc.Pos(e.ptr), "duplicate-cli-path", "command path %q is already used by tool %s", e.path, prev)
			continue
		}
		owner[e.path] = e.tool
	}
	return l
}

// groupConflicts reports a path that is also the group of another path.
func groupConflicts(entries []cliEntry) diag.List {
	var l diag.List
	sorted := slices.Clone(entries)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].path < sorted[j].path })
	for i := 0; i+1 < len(sorted); i++ {
		a := sorted[i]
		for _, b := range sorted[i+1:] {
			if !strings.HasPrefix(b.path, a.path+" ") {
				break
			}
			l.Errorf(a.doc.Pos(a.ptr), "cli-path-group", "command path %q of tool %s is also a group of %q (tool %s); a command cannot be both",
				a.path, a.tool, b.path, b.tool)
		}
	}
	return l
}
