package catalog

import (
	"fmt"
	"strconv"
	"strings"
)

// Index is the serialized SchemaIndex written beside the catalog file: the
// byte spans of every piece a query may need, and every path of every tool.
type Index struct {
	Version         int            `json:"version"`
	SourceHash      string         `json:"source_hash"`
	SourceHashSpan  Span           `json:"source_hash_span"`
	SurfaceHash     string         `json:"surface_hash"`
	Catalog         Span           `json:"catalog"`
	CatalogProducts Span           `json:"catalog_products"`
	Products        []IndexProduct `json:"products"`
	Tools           []IndexTool    `json:"tools"`
}

// IndexProduct locates one product summary and its tool list.
type IndexProduct struct {
	ID        string `json:"id"`
	Span      Span   `json:"span"`
	ToolsSpan Span   `json:"tools_span"`
	Tools     []int  `json:"tools"`
}

// IndexTool locates one tool: its summary inside the catalog object and its
// full leaf inside the tools object. Paths holds the primary CLI path first,
// then the aliases.
type IndexTool struct {
	Canonical string   `json:"canonical"`
	Product   int      `json:"product"`
	Summary   Span     `json:"summary"`
	Full      Span     `json:"full"`
	Paths     []string `json:"paths"`
}

// pathRef is what a CLI path resolves to.
type pathRef struct {
	tool  int
	alias bool
}

// lookup holds the maps built from an Index when a catalog is opened.
type lookup struct {
	byCanonical map[string]int
	byPath      map[string]pathRef
	byProduct   map[string]int
}

// NormalizePath collapses runs of whitespace in a CLI path.
func NormalizePath(p string) string { return strings.Join(strings.Fields(p), " ") }

// checkIndex validates idx against the catalog bytes and builds the maps.
func checkIndex(idx *Index, data []byte) (*lookup, error) {
	if idx.Version != SnapshotVersion {
		return nil, fmt.Errorf("catalog index version %d, want %d", idx.Version, SnapshotVersion)
	}
	if err := checkSpans(idx, len(data)); err != nil {
		return nil, err
	}
	if string(idx.SourceHashSpan.of(data)) != strconv.Quote(idx.SourceHash) {
		return nil, fmt.Errorf("catalog index belongs to another catalog (source_hash differs)")
	}
	return buildLookup(idx)
}

func checkSpans(idx *Index, n int) error {
	spans := []Span{idx.SourceHashSpan, idx.Catalog, idx.CatalogProducts}
	for _, p := range idx.Products {
		spans = append(spans, p.Span, p.ToolsSpan)
	}
	for _, t := range idx.Tools {
		spans = append(spans, t.Summary, t.Full)
	}
	for _, s := range spans {
		if s.Off < 0 || s.Len <= 0 || s.Off > n-s.Len {
			return fmt.Errorf("catalog index span %d+%d is outside the catalog (%d bytes)", s.Off, s.Len, n)
		}
	}
	return checkNesting(idx)
}

// checkNesting requires every cut-out span inside its container and every
// product's tool numbers to name tools of that product.
func checkNesting(idx *Index) error {
	if !inside(idx.CatalogProducts, idx.Catalog) {
		return fmt.Errorf("catalog index: the product list is outside the catalog object")
	}
	listed := make([]bool, len(idx.Tools))
	for i, p := range idx.Products {
		if !inside(p.ToolsSpan, p.Span) || !inside(p.Span, idx.CatalogProducts) {
			return fmt.Errorf("catalog index: product %q spans do not nest", p.ID)
		}
		for _, t := range p.Tools {
			if t < 0 || t >= len(idx.Tools) || idx.Tools[t].Product != i || listed[t] {
				return fmt.Errorf("catalog index: product %q lists tool %d, which is not its own or listed twice", p.ID, t)
			}
			listed[t] = true
		}
	}
	for t, ok := range listed {
		if !ok {
			return fmt.Errorf("catalog index: tool %q is in no product", idx.Tools[t].Canonical)
		}
	}
	return nil
}

func inside(inner, outer Span) bool {
	return inner.Off >= outer.Off && inner.Off+inner.Len <= outer.Off+outer.Len
}

func buildLookup(idx *Index) (*lookup, error) {
	l := &lookup{byCanonical: map[string]int{}, byPath: map[string]pathRef{}, byProduct: map[string]int{}}
	for i, p := range idx.Products {
		if _, dup := l.byProduct[p.ID]; dup {
			return nil, fmt.Errorf("catalog index: duplicate product %q", p.ID)
		}
		l.byProduct[p.ID] = i
	}
	for i, t := range idx.Tools {
		if err := l.addTool(i, t, len(idx.Products)); err != nil {
			return nil, err
		}
	}
	return l, nil
}

func (l *lookup) addTool(i int, t IndexTool, products int) error {
	if _, dup := l.byCanonical[t.Canonical]; dup || t.Product < 0 || t.Product >= products || len(t.Paths) == 0 {
		return fmt.Errorf("catalog index: bad or duplicate tool %q", t.Canonical)
	}
	l.byCanonical[t.Canonical] = i
	for j, p := range t.Paths {
		if _, dup := l.byPath[p]; dup {
			return fmt.Errorf("catalog index: path %q is claimed twice", p)
		}
		l.byPath[p] = pathRef{tool: i, alias: j > 0}
	}
	return nil
}
