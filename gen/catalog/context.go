package catalog

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/cetpgen/cetpgen/runtime/catalog"
)

// metaEntry is one metadata source's view of a tool.
type metaEntry struct {
	m    ToolMetadata
	ref  string
	name string
	prec string
}

// selEntry is one selection source's view of a tool or product.
type selEntry struct {
	tool    ToolSelection
	product ProductSelection
	ref     string
	name    string
	prec    string
}

// sourceSet indexes every source by canonical path (or product id).
type sourceSet struct {
	in       *Input
	root     string
	meta     map[string][]metaEntry
	sel      map[string][]selEntry
	prodSel  map[string][]selEntry
	bindings map[string]map[string]string
	mapExcl  map[string]string
	exclFlag map[string][]string // canonical path -> flags of its mapping exclusions
	refs     map[catalog.InterfaceRef]bool
	typed    map[string]TypedTool
	ifc      map[string]InterfaceTool
}

// reviewPrec is the precedence of an explicit source.
func reviewPrec(sourceReviewed, entryReviewed bool) string {
	switch {
	case sourceReviewed && entryReviewed:
		return PrecReviewedExplicit
	case entryReviewed || sourceReviewed:
		return PrecExplicit
	}
	return PrecUnreviewedExplicit
}

func newSourceSet(in *Input, root string, known map[string]bool) (*sourceSet, error) {
	s := &sourceSet{in: in, root: root, meta: map[string][]metaEntry{}, sel: map[string][]selEntry{},
		prodSel: map[string][]selEntry{}, bindings: map[string]map[string]string{},
		mapExcl: map[string]string{}, typed: map[string]TypedTool{}, ifc: map[string]InterfaceTool{}}
	s.addMetadata()
	s.addSelection()
	s.addRest()
	s.sortEntries()
	return s, s.checkKnown(known)
}

func (s *sourceSet) addMetadata() {
	for _, src := range s.in.Metadata {
		for c, m := range src.Tools {
			s.meta[c] = append(s.meta[c], metaEntry{m, src.Ref, src.Source.Name, reviewPrec(src.Source.Reviewed, m.Reviewed)})
		}
	}
}

func (s *sourceSet) addSelection() {
	for _, src := range s.in.Selection {
		for c, t := range src.Tools {
			s.sel[c] = append(s.sel[c], selEntry{tool: t, ref: src.Ref, name: src.Source.Name, prec: reviewPrec(src.Source.Reviewed, t.Reviewed)})
		}
		for id, p := range src.Products {
			s.prodSel[id] = append(s.prodSel[id], selEntry{product: p, ref: src.Ref, name: src.Source.Name, prec: reviewPrec(src.Source.Reviewed, p.Reviewed)})
		}
	}
}

func (s *sourceSet) addRest() {
	if b := s.in.Bindings; b != nil {
		s.bindings, s.mapExcl = b.Tools, b.MappingExclusions
	}
	s.exclFlag = map[string][]string{}
	for _, key := range slices.Sorted(maps.Keys(s.mapExcl)) {
		if c, flag, ok := strings.Cut(key, " --"); ok {
			s.exclFlag[c] = append(s.exclFlag[c], flag)
		}
	}
	if t := s.in.Typed; t != nil {
		s.typed = t.Tools
	}
	s.refs = map[catalog.InterfaceRef]bool{}
	if f := s.in.Interfaces; f != nil {
		s.ifc = f.Tools
		for _, t := range f.Tools {
			s.refs[t.Ref] = true
		}
		for _, p := range f.Pinned {
			s.refs[p] = true
		}
	}
}

// sortEntries orders each tool's and product's source entries by ref, so
// that the order sources are fed in never shows in the catalog.
func (s *sourceSet) sortEntries() {
	for _, es := range s.meta {
		sort.SliceStable(es, func(i, j int) bool { return es[i].ref < es[j].ref })
	}
	for _, m := range []map[string][]selEntry{s.sel, s.prodSel} {
		for _, es := range m {
			sort.SliceStable(es, func(i, j int) bool { return es[i].ref < es[j].ref })
		}
	}
}

// checkKnown fails on any source entry for a tool that is not in the
// registry: sources describe commands, they never create them.
func (s *sourceSet) checkKnown(known map[string]bool) error {
	var bad []string
	for _, keys := range [][]string{slices.Sorted(maps.Keys(s.meta)), slices.Sorted(maps.Keys(s.sel)), slices.Sorted(maps.Keys(s.bindings)), slices.Sorted(maps.Keys(s.typed)), slices.Sorted(maps.Keys(s.ifc))} {
		for _, k := range keys {
			if !known[k] {
				bad = append(bad, k)
			}
		}
	}
	if len(bad) > 0 {
		sort.Strings(bad)
		return fmt.Errorf("sources describe tools that are not in the effective registry: %v", bad)
	}
	return nil
}

// pinned reports whether ref is in the pinned interface registry.
func (s *sourceSet) pinned(ref *catalog.InterfaceRef) bool {
	return ref != nil && s.refs[*ref]
}
