package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// IndexVersion is the version of the index format. It moves on its own:
// the catalog file keeps SnapshotVersion, the version of dws's format.
const IndexVersion = 2

// Index is the serialized SchemaIndex written beside the catalog file: the
// byte spans of every piece a query may need, every path of every tool,
// and the compact section, every tool's --compact form. The file begins
// with compact_size, the length of that section, and ends with it, so
// that the loader cuts the section out without reading it and decodes the
// rest with compact_tools as [].
type Index struct {
	CompactSize     int             `json:"compact_size"`
	Version         int             `json:"version"`
	SourceHash      string          `json:"source_hash"`
	SourceHashSpan  Span            `json:"source_hash_span"`
	SurfaceHash     string          `json:"surface_hash"`
	Catalog         Span            `json:"catalog"`
	CatalogProducts Span            `json:"catalog_products"`
	Products        []IndexProduct  `json:"products"`
	Tools           []IndexTool     `json:"tools"`
	CompactTools    json.RawMessage `json:"compact_tools"`
}

// IndexProduct locates one product summary and its tool list.
type IndexProduct struct {
	ID        string `json:"id"`
	Span      Span   `json:"span"`
	ToolsSpan Span   `json:"tools_span"`
	Tools     []int  `json:"tools"`
}

// IndexTool locates one tool: its summary inside the catalog object, its
// full leaf inside the tools object and its --compact form inside the
// compact section of the index. Paths holds the primary CLI path first,
// then the aliases.
type IndexTool struct {
	Canonical string   `json:"canonical"`
	Product   int      `json:"product"`
	Summary   Span     `json:"summary"`
	Full      Span     `json:"full"`
	Compact   Span     `json:"compact"`
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

// The bytes around the compact section of an index file.
const (
	compactHead = "{\n \"compact_size\": "
	compactKey  = "\"compact_tools\": "
	compactTail = "\n}\n"
)

// splitIndex cuts the compact section out of an index file: it returns the
// file with the section replaced by [] and the section itself, which is
// not read.
func splitIndex(index []byte) (rest, section []byte, err error) {
	size, ok := compactSize(index)
	end := len(index) - len(compactTail)
	start := end - size
	if !ok || start < len(compactHead) || string(index[end:]) != compactTail ||
		string(index[start-len(compactKey):start]) != compactKey || index[start] != '[' || index[end-1] != ']' {
		return nil, nil, fmt.Errorf("catalog index: no compact section of the recorded size")
	}
	rest = make([]byte, 0, start+2+len(compactTail))
	rest = append(append(append(rest, index[:start]...), "[]"...), compactTail...)
	return rest, index[start:end], nil
}

// compactSize reads compact_size, the first member of an index file.
func compactSize(index []byte) (int, bool) {
	digits, ok := bytes.CutPrefix(index, []byte(compactHead))
	n := 0
	for i, c := range digits {
		switch {
		case c >= '0' && c <= '9' && i < 10:
			n = n*10 + int(c-'0')
		case c == ',' && i > 0 && ok:
			return n, len(index) >= n
		default:
			return 0, false
		}
	}
	return 0, false
}

// checkIndex validates idx against the catalog bytes and the size of the
// compact section, and builds the maps.
func checkIndex(idx *Index, data []byte, compact int) (*lookup, error) {
	if idx.Version != IndexVersion {
		return nil, fmt.Errorf("catalog index version %d, want %d", idx.Version, IndexVersion)
	}
	if string(idx.CompactTools) != "[]" || idx.CompactSize != compact {
		return nil, fmt.Errorf("catalog index: the compact section is not where compact_size puts it")
	}
	if err := checkSpans(idx, len(data)); err != nil {
		return nil, err
	}
	if err := checkCompactSpans(idx, compact); err != nil {
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

// checkCompactSpans requires every compact span inside the brackets of
// the compact section, which is n bytes long.
func checkCompactSpans(idx *Index, n int) error {
	for _, t := range idx.Tools {
		if !inside(t.Compact, Span{1, n - 2}) || t.Compact.Len <= 0 {
			return fmt.Errorf("catalog index: the compact form of %q is outside the compact section", t.Canonical)
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
