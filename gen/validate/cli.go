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

// DefaultCLIPath is the command path of a tool that has no cli.path: the
// product and the tool name as one word, with "_" written "-"
// ("update_item_title" -> "github update-item-title"). Tool names are
// unique within a Provider and contain no "-", so default paths are unique
// and, all being two words long, never the group of one another: a spec
// that says nothing about the CLI cannot break it.
func DefaultCLIPath(product, tool string) string {
	return product + " " + strings.ReplaceAll(tool, "_", "-")
}

// cliEntry is one command path of a tool: its cli.path, the default path
// its name gives when there is none, or an alias.
type cliEntry struct {
	path, tool string
	doc        *spec.Doc
	ptr        string
	explicit   bool
}

// cliRules checks the command paths of the generated Consumer CLI: the
// product is not a built-in command, every path a user wrote is the
// product and at least one more word, no path repeats, and no path is
// also a group of another (a command cannot be both a leaf and a group).
// Default paths never conflict with each other; a conflict between a
// written path and a default one is reported at the written path.
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
			out = append(out, cliEntry{DefaultCLIPath(product, t.Name), t.Name, doc, "/name", false})
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

// duplicatePaths reports every written path used a second time, at the
// written path: a path that another tool has as its default, or that an
// earlier written path (in file order) already took.
func duplicatePaths(entries []cliEntry) diag.List {
	var l diag.List
	defaults := map[string]string{}
	for _, e := range entries {
		if !e.explicit {
			defaults[e.path] = e.tool
		}
	}
	owner := map[string]string{}
	for _, e := range entries {
		if !e.explicit || e.path == "" {
			continue
		}
		if d, ok := defaults[e.path]; ok {
			l.Errorf(e.doc.Pos(e.ptr), "duplicate-cli-path",
				"command path %q is the default path of tool %s, which has no cli.path; choose another path, or give %s a cli.path", e.path, d, d)
			continue
		}
		if prev, dup := owner[e.path]; dup {
			l.Errorf(e.doc.Pos(e.ptr), "duplicate-cli-path", "command path %q is already used by tool %s", e.path, prev)
			continue
		}
		owner[e.path] = e.tool
	}
	return l
}

// groupConflicts reports a path that is also the group of another path,
// at the leaf when it was written, else at the written path under it.
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
			switch {
			case a.explicit:
				l.Errorf(a.doc.Pos(a.ptr), "cli-path-group", "command path %q of tool %s is also a group of %q (tool %s); a command cannot be both",
					a.path, a.tool, b.path, b.tool)
			case b.explicit:
				l.Errorf(b.doc.Pos(b.ptr), "cli-path-group",
					"command path %q of tool %s makes the default path %q of tool %s a group; a command cannot be both: choose another path, or give %s a cli.path",
					b.path, b.tool, a.path, a.tool, a.tool)
			}
		}
	}
	return l
}
