package catalog

import (
	"maps"
	"slices"
	"strings"

	"github.com/cetpgen/cetpgen/runtime/nearmatch"
)

// maxSuggestions bounds the paths Suggest returns; maxEdits is the
// farthest a suggested path may be from the one asked for.
const (
	maxSuggestions = 3
	maxEdits       = 2
)

// Suggest returns up to three paths of c near path, which names nothing:
// of the tool paths (primary and aliases), canonical paths, products and
// groups within two edits of it (a transposition counts as one), the
// nearest, by name; else the paths whose last words are path ("log" for
// "fitness workout log"). In a catalog of one product, path is also
// compared with the product put before it, as the product rule
// (PathAsMeant) reads it.
func (c *Catalog) Suggest(path string) []string {
	path = NormalizePath(path)
	if path == "" {
		return nil
	}
	forms := []string{path}
	if len(c.idx.Products) == 1 {
		forms = append(forms, c.idx.Products[0].ID+" "+path)
	}
	dist := map[string]int{}
	for _, cand := range c.candidates() {
		for _, f := range forms {
			if d := nearmatch.Distance(f, cand); d <= maxEdits && (dist[cand] == 0 || d < dist[cand]) {
				dist[cand] = d
			}
		}
	}
	if len(dist) == 0 {
		for _, cand := range c.candidates() {
			if strings.HasSuffix(cand, " "+path) {
				dist[cand] = 1
			}
		}
	}
	nearest := maxEdits
	for _, d := range dist {
		nearest = min(nearest, d)
	}
	var out []string
	for _, cand := range slices.Sorted(maps.Keys(dist)) {
		if dist[cand] == nearest && len(out) < maxSuggestions {
			out = append(out, cand)
		}
	}
	return out
}

// candidates are every path a query resolves: tool paths, canonical
// paths, products and the groups above tool paths, sorted.
func (c *Catalog) candidates() []string {
	set := map[string]bool{}
	for p := range c.look.byPath {
		set[p] = true
		w := strings.Fields(p)
		for i := 2; i < len(w); i++ {
			set[strings.Join(w[:i], " ")] = true
		}
	}
	for p := range c.look.byCanonical {
		set[p] = true
	}
	for p := range c.look.byProduct {
		set[p] = true
	}
	return slices.Sorted(maps.Keys(set))
}
