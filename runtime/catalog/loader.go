package catalog

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sync"
	"unsafe"
)

// Catalog is an opened catalog: the raw file bytes, the compact section of
// the index and the decoded rest of the index. Queries decode only the
// spans they need. A Catalog is safe for concurrent use.
type Catalog struct {
	data    []byte
	compact []byte
	idx     Index
	look    *lookup
}

// Open decodes index (strictly, all but its compact section, which is only
// located) and checks it against data, the catalog file. It does not
// decode the catalog itself.
func Open(data, index []byte) (*Catalog, error) {
	rest, compact, err := splitIndex(index)
	if err != nil {
		return nil, err
	}
	c := &Catalog{data: data, compact: compact}
	if err := DecodeStrict(rest, &c.idx); err != nil {
		return nil, fmt.Errorf("catalog index: %w", err)
	}
	look, err := checkIndex(&c.idx, data, len(compact))
	if err != nil {
		return nil, err
	}
	c.look = look
	return c, nil
}

// Lazy returns a function that opens the catalog on its first call and
// returns the same result afterwards, so that commands other than `schema`
// never pay for it.
func Lazy(data, index []byte) func() (*Catalog, error) {
	return sync.OnceValues(func() (*Catalog, error) { return Open(data, index) })
}

// LazyString is Lazy over the catalog and index held as strings, as
// generated CLIs hold them in Go constants. The bytes are read in place,
// never copied, so a query touches only the pages it reads; nothing in
// this package writes to a catalog's data, which here is read-only memory.
func LazyString(data, index string) func() (*Catalog, error) {
	return Lazy(stringBytes(data), stringBytes(index))
}

// stringBytes returns the bytes of s without copying them; they must never
// be written.
func stringBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// Size is the length of the catalog file in bytes.
func (c *Catalog) Size() int { return len(c.data) }

// SourceHash is the catalog_hash of c.
func (c *Catalog) SourceHash() string { return c.idx.SourceHash }

// SurfaceHash is the semantic hash of the registry c was built from.
func (c *Catalog) SurfaceHash() string { return c.idx.SurfaceHash }

// Canonicals returns every canonical path of c in catalog order.
func (c *Catalog) Canonicals() []string {
	out := make([]string, len(c.idx.Tools))
	for i, t := range c.idx.Tools {
		out[i] = t.Canonical
	}
	return out
}

// Paths returns every CLI path (primary and aliases) of c.
func (c *Catalog) Paths() []string { return slices.Sorted(maps.Keys(c.look.byPath)) }

// Resolve reports the canonical path a CLI path or canonical path names,
// and whether it is an alias, without decoding anything.
func (c *Catalog) Resolve(path string) (canonical string, alias, ok bool) {
	path = NormalizePath(path)
	if i, found := c.look.byCanonical[path]; found {
		return c.idx.Tools[i].Canonical, false, true
	}
	ref, found := c.look.byPath[path]
	if !found {
		return "", false, false
	}
	return c.idx.Tools[ref.tool].Canonical, ref.alias, true
}

// StoredTool returns the stored bytes of a tool's full leaf, as --all
// copies them.
func (c *Catalog) StoredTool(canonical string) ([]byte, bool) {
	i, ok := c.look.byCanonical[canonical]
	if !ok {
		return nil, false
	}
	return c.idx.Tools[i].Full.of(c.data), true
}

// StoredCompact returns the stored --compact form of a tool, as --all
// --compact copies it.
func (c *Catalog) StoredCompact(canonical string) ([]byte, bool) {
	i, ok := c.look.byCanonical[canonical]
	if !ok {
		return nil, false
	}
	return c.compactOf(i), true
}

// tool strictly decodes the full leaf of tool i.
func (c *Catalog) tool(i int) (*ToolSpec, error) {
	it := c.idx.Tools[i]
	var t ToolSpec
	if err := t.UnmarshalJSON(it.Full.of(c.data)); err != nil {
		return nil, fmt.Errorf("catalog tool %s: %w", it.Canonical, err)
	}
	if t.Identity.CanonicalPath != it.Canonical || t.Identity.PrimaryCLIPath != it.Paths[0] {
		return nil, fmt.Errorf("catalog tool %s: identity differs from the index", it.Canonical)
	}
	return &t, nil
}

// summary strictly decodes the summary of tool i.
func (c *Catalog) summary(i int) (*summaryWire, error) {
	var s summaryWire
	if err := DecodeStrict(c.idx.Tools[i].Summary.of(c.data), &s); err != nil {
		return nil, fmt.Errorf("catalog summary %s: %w", c.idx.Tools[i].Canonical, err)
	}
	return &s, nil
}

// header decodes the catalog object with its product list cut out.
func (c *Catalog) header() (*headerWire, error) {
	var h headerWire
	raw := cut(c.data, c.idx.Catalog, c.idx.CatalogProducts)
	if err := DecodeStrict(raw, &h); err != nil {
		return nil, fmt.Errorf("catalog header: %w", err)
	}
	if h.Count != len(c.idx.Products) || h.ToolCount != len(c.idx.Tools) {
		return nil, fmt.Errorf("catalog header counts differ from the index")
	}
	return &h, checkHeader(&h)
}

// productHead decodes product i with its tool list cut out.
func (c *Catalog) productHead(i int) (*productWire, error) {
	ip := c.idx.Products[i]
	var p productWire
	if err := DecodeStrict(cut(c.data, ip.Span, ip.ToolsSpan), &p); err != nil {
		return nil, fmt.Errorf("catalog product %s: %w", ip.ID, err)
	}
	if p.ID != ip.ID || p.ToolCount != len(ip.Tools) {
		return nil, fmt.Errorf("catalog product %s differs from the index", ip.ID)
	}
	return &p, nil
}

// cut returns the bytes of outer with inner replaced by an empty list.
func cut(data []byte, outer, inner Span) []byte {
	o := outer.of(data)
	rel := inner.Off - outer.Off
	b := make([]byte, 0, len(o)-inner.Len+2)
	b = append(b, o[:rel]...)
	b = append(b, "[]"...)
	return append(b, o[rel+inner.Len:]...)
}

// Decode strictly decodes a whole catalog file into a Registry, checks its
// source_hash and returns the registry and its surface hash. Gates and tests
// use it; queries never do.
func Decode(data []byte) (*Registry, string, error) {
	var env struct {
		Catalog     json.RawMessage            `json:"catalog"`
		SourceHash  string                     `json:"source_hash"`
		SurfaceHash string                     `json:"surface_hash"`
		Tools       map[string]json.RawMessage `json:"tools"`
		Version     int                        `json:"version"`
	}
	if err := DecodeStrict(data, &env); err != nil {
		return nil, "", fmt.Errorf("catalog: %w", err)
	}
	if err := verifyEnvelope(data, env.Version, env.SourceHash); err != nil {
		return nil, "", err
	}
	r, err := decodeRegistry(env.Catalog, env.Tools)
	return r, env.SurfaceHash, err
}

// verifyEnvelope checks the version and recomputes source_hash.
func verifyEnvelope(data []byte, version int, want string) error {
	if version != SnapshotVersion {
		return fmt.Errorf("catalog version %d, want %d", version, SnapshotVersion)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	delete(m, "source_hash")
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(b)
	if got := "sha256:" + hex.EncodeToString(sum[:]); got != want {
		return fmt.Errorf("catalog source_hash %s does not match its content (%s)", want, got)
	}
	return nil
}

func decodeRegistry(catalog json.RawMessage, tools map[string]json.RawMessage) (*Registry, error) {
	var h headerWire
	if err := DecodeStrict(catalog, &h); err != nil {
		return nil, fmt.Errorf("catalog object: %w", err)
	}
	if err := checkHeader(&h); err != nil {
		return nil, err
	}
	r := &Registry{Header: Header{AgentMetadata: h.AgentMetadata, InterfaceMetadata: h.InterfaceMetadata}}
	seen := 0
	for _, raw := range h.Products {
		p, n, err := decodeProduct(raw, tools)
		if err != nil {
			return nil, err
		}
		r.Products, seen = append(r.Products, p), seen+n
	}
	if seen != len(tools) || h.Count != len(r.Products) || h.ToolCount != seen {
		return nil, fmt.Errorf("catalog: products list %d tools, tools holds %d, counts say %d/%d", seen, len(tools), h.Count, h.ToolCount)
	}
	return r, nil
}

// decodeProduct decodes one product summary and the full tools it lists,
// checking each summary against its full tool.
func decodeProduct(raw json.RawMessage, tools map[string]json.RawMessage) (ProductSpec, int, error) {
	var w productWire
	if err := DecodeStrict(raw, &w); err != nil {
		return ProductSpec{}, 0, fmt.Errorf("catalog product: %w", err)
	}
	p := productFromWire(&w)
	for _, sraw := range w.Tools {
		t, err := decodeListed(sraw, tools)
		if err != nil {
			return p, 0, fmt.Errorf("catalog product %s: %w", w.ID, err)
		}
		p.Tools = append(p.Tools, *t)
	}
	if w.ToolCount != len(p.Tools) {
		return p, 0, fmt.Errorf("catalog product %s: tool_count %d, lists %d", w.ID, w.ToolCount, len(p.Tools))
	}
	return p, len(p.Tools), nil
}

func decodeListed(sraw json.RawMessage, tools map[string]json.RawMessage) (*ToolSpec, error) {
	var s summaryWire
	if err := DecodeStrict(sraw, &s); err != nil {
		return nil, err
	}
	full, ok := tools[s.CanonicalPath]
	if !ok {
		return nil, fmt.Errorf("summary %s has no full tool", s.CanonicalPath)
	}
	var t ToolSpec
	if err := t.UnmarshalJSON(full); err != nil {
		return nil, fmt.Errorf("tool %s: %w", s.CanonicalPath, err)
	}
	want, err := json.Marshal(t.Summary())
	if err != nil || !jsonEqual(want, sraw) {
		return nil, fmt.Errorf("summary of %s differs from its full tool", s.CanonicalPath)
	}
	return &t, nil
}

// jsonEqual reports whether a and b are the same JSON up to whitespace.
func jsonEqual(a, b []byte) bool {
	var ca, cb bytes.Buffer
	return json.Compact(&ca, a) == nil && json.Compact(&cb, b) == nil && bytes.Equal(ca.Bytes(), cb.Bytes())
}
