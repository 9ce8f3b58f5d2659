package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// Query is one `schema` query: a path (canonical, CLI path, alias, product
// or group), or an exact CLI path, or --all; Compact strips provenance and
// debug keys. Root is the CLI's root command name: a path or CLI path may
// start with it, as dws's examples do (`schema "dws calendar event
// create"`).
type Query struct {
	Path    string
	CLIPath string
	All     bool
	Compact bool
	Root    string
}

// withoutRoot returns q with both paths read by the product rule
// (PathAsMeant).
func (c *Catalog) withoutRoot(q Query) Query {
	q.Path, q.CLIPath = c.PathAsMeant(q.Path, q.Root), c.PathAsMeant(q.CLIPath, q.Root)
	return q
}

// PathAsMeant is the product rule of a schema path, the one `cetpgen
// schema` and every generated CLI follow: a path that resolves as written
// (a tool, a product or a group) is kept; else the root name root is
// dropped from its front, as dws's examples write it (`schema "dws
// calendar event create"`; a product may share the root's name: `cetpgen
// schema cetpgen` is cetpgen's product); else, in a catalog of one
// product, the product is put before it, so that a path may leave out the
// product its CLI is for (`cetp-fitness schema "workout log"` is
// `fitness workout log`, as `cetpgen schema validate` is cetpgen's
// validate). A path that resolves in none of these ways comes back without
// the root name, for the error to name.
func (c *Catalog) PathAsMeant(p, root string) string {
	n := NormalizePath(p)
	if n == "" || c.resolves(n) {
		return p
	}
	if root != "" && (n == root || strings.HasPrefix(n, root+" ")) {
		n = strings.TrimPrefix(strings.TrimPrefix(n, root), " ")
		p = n
		if n == "" || c.resolves(n) {
			return n
		}
	}
	if len(c.idx.Products) == 1 {
		if full := c.idx.Products[0].ID + " " + n; c.resolves(full) {
			return full
		}
	}
	return p
}

// resolves reports whether path names a tool, a product or a group.
func (c *Catalog) resolves(path string) bool {
	if _, ok := c.look.byCanonical[path]; ok {
		return true
	}
	if !c.unknown(path) {
		return true
	}
	for _, t := range c.idx.Tools {
		if hasPrefixPath(t.Paths, path+" ") {
			return true
		}
	}
	return false
}

// QueryError is a structured query failure, printed as
// {"error":{"category","code","message"}}.
type QueryError struct {
	Category string `json:"category"`
	Code     int    `json:"code"`
	Message  string `json:"message"`
	// Unknown is the path that names nothing, for an unknown path.
	Unknown string `json:"-"`
}

// Error returns the message.
func (e *QueryError) Error() string { return e.Message }

// ExitCode is the exit status dws gives the error: its code (3 for a
// validation error, 5 for a malformed command line).
func (e *QueryError) ExitCode() int { return e.Code }

// commandLineError is the error of a malformed schema command line (a
// wrong argument count, an unknown flag), as dws reports cobra's errors.
func commandLineError(msg string) *QueryError {
	return &QueryError{Category: "internal", Code: 5, Message: msg}
}

// MarshalJSON writes the error wrapped in {"error": …}.
func (e *QueryError) MarshalJSON() ([]byte, error) {
	type plain QueryError
	return json.Marshal(struct {
		Error plain `json:"error"`
	}{plain(*e)})
}

// unknownPath is the error of a path that is not in the catalog, whether it
// is unknown or excluded.
func unknownPath(p string) *QueryError {
	return &QueryError{Category: "validation", Code: 3, Message: fmt.Sprintf("unknown runtime schema path %q", p), Unknown: p}
}

func usageError(msg string) *QueryError {
	return &QueryError{Category: "validation", Code: 3, Message: msg}
}

// Payload returns the payload of q, ready to encode. --all is served by
// WriteAll instead.
func (c *Catalog) Payload(q Query) (any, error) { return c.rootlessPayload(c.withoutRoot(q)) }

// rootlessPayload is Payload of a query whose paths no longer start with
// the root name.
func (c *Catalog) rootlessPayload(q Query) (any, error) {
	if q.Compact {
		if raw, ok := c.storedCompactLeaf(q); ok {
			return raw, nil
		}
	}
	p, err := c.payload(q)
	if err != nil || !q.Compact {
		return p, err
	}
	return compactPayload(p)
}

// storedCompactLeaf returns the stored --compact form of q if q names a
// tool by its canonical or primary path (an alias view differs in
// cli_path, and is compacted from the decoded tool).
func (c *Catalog) storedCompactLeaf(q Query) (json.RawMessage, bool) {
	path := NormalizePath(q.Path)
	if q.CLIPath != "" {
		path = NormalizePath(q.CLIPath)
	}
	if i, ok := c.look.byCanonical[path]; ok && q.CLIPath == "" {
		return c.compactOf(i), true
	}
	ref, ok := c.look.byPath[path]
	if !ok || ref.alias {
		return nil, false
	}
	return c.compactOf(ref.tool), true
}

// compactOf returns the stored --compact form of tool i.
func (c *Catalog) compactOf(i int) json.RawMessage {
	return json.RawMessage(c.idx.Tools[i].Compact.of(c.compact))
}

// payload answers q. --cli-path resolves an exact CLI path (primary or
// alias) first, then like a path: a canonical path, a product or a group.
func (c *Catalog) payload(q Query) (any, error) {
	if q.CLIPath != "" {
		p := NormalizePath(q.CLIPath)
		if ref, ok := c.look.byPath[p]; ok {
			return c.leaf(ref, p)
		}
		if p == "" {
			return nil, unknownPath(q.CLIPath)
		}
		return c.resolve(p)
	}
	path := NormalizePath(q.Path)
	if path == "" || (path == "list" && c.unknown(path)) {
		return c.Overview()
	}
	return c.resolve(path)
}

func (c *Catalog) unknown(path string) bool {
	_, tool := c.look.byPath[path]
	_, prod := c.look.byProduct[path]
	return !tool && !prod
}

// resolve routes a path: canonical, CLI path or alias, product, group.
func (c *Catalog) resolve(path string) (any, error) {
	if i, ok := c.look.byCanonical[path]; ok {
		return c.leaf(pathRef{tool: i}, c.idx.Tools[i].Paths[0])
	}
	if ref, ok := c.look.byPath[path]; ok {
		return c.leaf(ref, path)
	}
	if i, ok := c.look.byProduct[path]; ok && !strings.Contains(path, " ") {
		return c.Product(i)
	}
	if strings.Contains(path, " ") {
		if g, err := c.Group(path); g != nil || err != nil {
			return g, err
		}
	}
	return nil, unknownPath(path)
}

// leaf decodes one tool and views it through path.
func (c *Catalog) leaf(ref pathRef, path string) (any, error) {
	t, err := c.tool(ref.tool)
	if err != nil {
		return nil, err
	}
	if ref.alias {
		v := t.AliasView(path)
		return &v, nil
	}
	return t, nil
}

// overviewPayload is the root overview (`schema`, `schema list`).
type overviewPayload struct {
	AgentMetadata     AgentMetadata     `json:"agent_metadata"`
	CatalogHash       string            `json:"catalog_hash"`
	Count             int               `json:"count"`
	InterfaceMetadata InterfaceMetadata `json:"interface_metadata"`
	Kind              string            `json:"kind"`
	Level             string            `json:"level"`
	Products          []overviewEntry   `json:"products"`
	Source            string            `json:"source"`
	SurfaceHash       string            `json:"surface_hash"`
	ToolCount         int               `json:"tool_count"`
}

// Overview returns the compact product overview.
func (c *Catalog) Overview() (any, error) {
	h, err := c.header()
	if err != nil {
		return nil, err
	}
	o := &overviewPayload{AgentMetadata: h.AgentMetadata, CatalogHash: c.idx.SourceHash, Count: h.Count,
		InterfaceMetadata: h.InterfaceMetadata, Kind: Kind, Level: "products", Products: []overviewEntry{},
		Source: h.Source, SurfaceHash: c.idx.SurfaceHash, ToolCount: h.ToolCount}
	for i := range c.idx.Products {
		p, err := c.productHead(i)
		if err != nil {
			return nil, err
		}
		o.Products = append(o.Products, p.overview())
	}
	return o, nil
}

// productPayload is a product query.
type productPayload struct {
	Count   int          `json:"count"`
	Kind    string       `json:"kind"`
	Level   string       `json:"level"`
	Product *productWire `json:"product"`
	Source  string       `json:"source"`
}

// Product returns the summary of product i with its tool summaries.
func (c *Catalog) Product(i int) (any, error) {
	p, err := c.productHead(i)
	if err != nil {
		return nil, err
	}
	for _, ti := range c.idx.Products[i].Tools {
		s, err := c.summary(ti)
		if err != nil {
			return nil, err
		}
		b, _ := appendSummaryWire(nil, s)
		p.Tools = append(p.Tools, b)
	}
	return &productPayload{Count: len(p.Tools), Kind: Kind, Level: "product", Product: p, Source: CatalogSource}, nil
}

// groupPayload is a group query.
type groupPayload struct {
	Count  int            `json:"count"`
	Kind   string         `json:"kind"`
	Level  string         `json:"level"`
	Path   string         `json:"path"`
	Source string         `json:"source"`
	Tools  []*summaryWire `json:"tools"`
}

// Group returns the summaries of every tool one of whose paths starts with
// path and a space, or nil if there is none.
func (c *Catalog) Group(path string) (any, error) {
	g := &groupPayload{Kind: Kind, Level: "group", Path: path, Source: CatalogSource}
	for i, t := range c.idx.Tools {
		if !hasPrefixPath(t.Paths, path+" ") {
			continue
		}
		s, err := c.summary(i)
		if err != nil {
			return nil, err
		}
		g.Tools = append(g.Tools, s)
	}
	if len(g.Tools) == 0 {
		return nil, nil
	}
	g.Count = len(g.Tools)
	return g, nil
}

func hasPrefixPath(paths []string, prefix string) bool {
	for _, p := range paths {
		if strings.HasPrefix(p, prefix) {
			return true
		}
	}
	return false
}

// compactPayload strips a payload for --compact.
func compactPayload(p any) (any, error) {
	b, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, err
	}
	return compactValue(v), nil
}

// Write writes the payload of q to w as indented JSON with a final newline.
func (c *Catalog) Write(w io.Writer, q Query) error {
	q = c.withoutRoot(q)
	if q.All {
		if q.Path != "" || q.CLIPath != "" {
			return usageError("--all cannot be combined with a schema path")
		}
		return c.WriteAll(w, q.Compact)
	}
	if q.Path != "" && q.CLIPath != "" {
		return usageError("--cli-path cannot be combined with a schema path")
	}
	p, err := c.rootlessPayload(q)
	if err != nil {
		return err
	}
	return writeJSON(w, p)
}

// writeJSON writes v as dws's schema command does: indented by two
// spaces, HTML characters not escaped, with a final newline.
func writeJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(unescapeHTML(b), '\n'))
	return err
}

// allHead is the envelope of --all before its product list.
type allHead struct {
	AgentMetadata     AgentMetadata     `json:"agent_metadata"`
	CatalogHash       string            `json:"catalog_hash"`
	Count             int               `json:"count"`
	InterfaceMetadata InterfaceMetadata `json:"interface_metadata"`
	Kind              string            `json:"kind"`
	Level             string            `json:"level"`
}

// WriteAll writes --all as dws does: the whole export indented, every
// product with its full tools. The stored leaf bytes (or, with compact,
// the stored compact forms) are re-indented in one pass, not decoded.
func (c *Catalog) WriteAll(w io.Writer, compact bool) error {
	if compact {
		return c.writeAllCompact(w)
	}
	return c.writeAll(w, func(ti int) []byte { return c.idx.Tools[ti].Full.of(c.data) })
}

// AllSkeleton returns --all with every tool replaced by its canonical path
// as a JSON string: the envelope and product list exactly as WriteAll
// writes them, for gates that check the stored tools separately.
func (c *Catalog) AllSkeleton() ([]byte, error) {
	var buf bytes.Buffer
	err := c.writeAll(&buf, func(ti int) []byte {
		b, _ := json.Marshal(c.idx.Tools[ti].Canonical)
		return b
	})
	return buf.Bytes(), err
}

// writeAll writes --all, with emit giving the bytes of tool ti.
func (c *Catalog) writeAll(w io.Writer, emit func(ti int) []byte) error {
	h, err := c.header()
	if err != nil {
		return err
	}
	jw := &jsonWriter{compactFrom: indentAll, out: w, wire: true}
	jw.object(0, []field{
		{"agent_metadata", h.AgentMetadata, nil}, {"catalog_hash", c.idx.SourceHash, nil},
		{"count", h.Count, nil}, {"interface_metadata", h.InterfaceMetadata, nil},
		{"kind", Kind, nil}, {"level", "catalog", nil},
		{"products", nil, func(d int) { c.writeAllProducts(jw, d, emit) }},
		{"source", h.Source, nil}, {"surface_hash", c.idx.SurfaceHash, nil}, {"tool_count", h.ToolCount, nil},
	})
	if jw.err != nil {
		return jw.err
	}
	jw.buf.WriteByte('\n')
	jw.spill(0)
	return jw.err
}

func (c *Catalog) writeAllProducts(jw *jsonWriter, depth int, emit func(int) []byte) {
	jw.buf.WriteByte('[')
	for i := range c.idx.Products {
		jw.elem(i, depth)
		p, err := c.productHead(i)
		if err != nil && jw.err == nil {
			jw.err = err
			return
		}
		c.writeAllProduct(jw, p, i, depth+1, emit)
	}
	jw.close(']', len(c.idx.Products), depth)
}

func (c *Catalog) writeAllProduct(jw *jsonWriter, p *productWire, i, depth int, emit func(int) []byte) {
	tools := func(d int) {
		jw.buf.WriteByte('[')
		for j, ti := range c.idx.Products[i].Tools {
			jw.elem(j, d)
			jw.indented(emit(ti), d+1)
			jw.spill(64 << 10)
		}
		jw.close(']', len(c.idx.Products[i].Tools), d)
	}
	jw.object(depth, []field{
		{"agent_metadata_source", p.AgentMetadataSource, nil}, {"agent_source_refs", p.AgentSourceRefs, nil},
		{"agent_summary", p.AgentSummary, nil}, {"agent_summary_source", p.AgentSummarySource, nil},
		{"avoid_when", p.AvoidWhen, nil}, {"description", p.Description, nil},
		{"field_provenance", p.FieldProvenance, nil}, {"id", p.ID, nil}, {"name", p.Name, nil},
		{"runtime", p.Runtime, nil}, {"tool_count", p.ToolCount, nil}, {"tools", nil, tools},
		{"use_when", p.UseWhen, nil},
	})
}

// writeAllCompact streams the compact export: the product heads are
// decoded and stripped; each tool's stored compact form is copied.
func (c *Catalog) writeAllCompact(w io.Writer) error {
	jw := &jsonWriter{compactFrom: indentAll, out: w, wire: true}
	jw.object(0, []field{
		{"count", len(c.idx.Products), nil}, {"kind", Kind, nil}, {"level", "catalog", nil},
		{"products", nil, func(d int) { c.writeCompactProducts(jw, d) }},
		{"tool_count", len(c.idx.Tools), nil},
	})
	jw.buf.WriteByte('\n')
	jw.spill(0)
	return jw.err
}

func (c *Catalog) writeCompactProducts(jw *jsonWriter, depth int) {
	jw.buf.WriteByte('[')
	for i := range c.idx.Products {
		jw.elem(i, depth)
		head, err := c.productHead(i)
		if err != nil {
			jw.fail(err)
			return
		}
		m, err := compactMap(head)
		if err != nil {
			jw.fail(err)
			return
		}
		var fields []field
		for _, k := range slices.Sorted(maps.Keys(m)) {
			fields = append(fields, field{k, m[k], nil})
			if k == "tools" {
				fields[len(fields)-1] = field{k, nil, func(d int) { c.writeCompactTools(jw, i, d) }}
			}
		}
		jw.object(depth+1, fields)
	}
	jw.close(']', len(c.idx.Products), depth)
}

func (c *Catalog) writeCompactTools(jw *jsonWriter, product, depth int) {
	tools := c.idx.Products[product].Tools
	jw.buf.WriteByte('[')
	for j, ti := range tools {
		jw.elem(j, depth)
		jw.indented(c.compactOf(ti), depth+1)
		jw.spill(64 << 10)
	}
	jw.close(']', len(tools), depth)
}

// compactMap returns the --compact form of a payload as a map.
func compactMap(v any) (map[string]any, error) {
	p, err := compactPayload(v)
	m, _ := p.(map[string]any)
	return m, err
}
