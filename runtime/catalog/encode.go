package catalog

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Span is a byte range [Off, Off+Len) of the catalog file, written as the
// JSON array [off, len].
type Span struct {
	Off int
	Len int
}

// MarshalJSON writes s as [off, len].
func (s Span) MarshalJSON() ([]byte, error) { return json.Marshal([2]int{s.Off, s.Len}) }

// UnmarshalJSON reads [off, len]; it parses by hand, since an index holds
// two spans per tool and every query opens the index.
func (s *Span) UnmarshalJSON(b []byte) error {
	in, ok := bytes.CutPrefix(bytes.TrimSpace(b), []byte("["))
	in, ok2 := bytes.CutSuffix(in, []byte("]"))
	first, second, ok3 := bytes.Cut(in, []byte(","))
	if !ok || !ok2 || !ok3 {
		return fmt.Errorf("span %s is not [off, len]", b)
	}
	off, err1 := strconv.Atoi(string(bytes.TrimSpace(first)))
	n, err2 := strconv.Atoi(string(bytes.TrimSpace(second)))
	if err1 != nil || err2 != nil {
		return fmt.Errorf("span %s is not [off, len]", b)
	}
	s.Off, s.Len = off, n
	return nil
}

func (s Span) shift(by int) Span { return Span{s.Off + by, s.Len} }

func (s Span) of(data []byte) []byte { return data[s.Off : s.Off+s.Len] }

// jsonWriter writes JSON one piece at a time and reports the span of every
// piece. Containers above depth compactFrom put each member on its own
// indented line; from compactFrom on, values are compact. So a catalog has
// one line per tool (small diffs, no indentation bytes), and json.Compact
// of the file is exactly json.Marshal of the same value.
type jsonWriter struct {
	buf         bytes.Buffer
	chunks      [][]byte // written bytes before buf, when not streaming
	base        int      // total length of chunks
	err         error
	compactFrom int
	out         io.Writer // if set, spill streams the buffer to it
	last        int       // room for a hand-encoded value: the largest so far and a quarter
	whole       bool      // everything stays in buf, which grows by extrapolation
	expect      int       // hand-encoded values a whole writer will write
	values      int       // hand-encoded values written
	valueBytes  int       // their total size
	wire        bool      // spill writes dws's wire: HTML characters unescaped
}

// size is the number of bytes written so far.
func (w *jsonWriter) size() int { return w.base + w.buf.Len() }

// writeBig appends b without copying it into the buffer: large values
// stay separate chunks until the file is assembled once, at its final
// size.
func (w *jsonWriter) writeBig(b []byte) {
	if w.out != nil || len(b) < 4096 {
		w.buf.Write(b)
		return
	}
	if w.buf.Len() > 0 {
		w.base += w.buf.Len()
		w.chunks = append(w.chunks, bytes.Clone(w.buf.Bytes()))
		w.buf.Reset()
	}
	w.chunks = append(w.chunks, b)
	w.base += len(b)
}

// blockSize is the size of the blocks a large output is written in.
const blockSize = 1 << 20

// room makes sure the buffer has n bytes free. A buffer without them
// becomes a chunk and a new one of at least blockSize begins, so that a
// large output grows block by block, never copied or cleared twice as a
// doubling buffer would be.
func (w *jsonWriter) room(n int) {
	if w.out != nil || w.buf.Available() >= n {
		return
	}
	if w.whole {
		w.regrow(n)
		return
	}
	if w.buf.Len() > 0 {
		w.base += w.buf.Len()
		w.chunks = append(w.chunks, w.buf.Bytes())
	}
	w.buf = *bytes.NewBuffer(make([]byte, 0, max(blockSize, 2*n)))
}

// regrow moves the buffer of a whole writer into one with room for n
// bytes and for the values still expected, at 5/4 of their average size so
// far. The new buffer is allocated without being cleared first (fresh
// memory is zero already), so that its unused end is never touched.
func (w *jsonWriter) regrow(n int) {
	extra := max(n, blockSize)
	if w.values > 0 {
		extra = max(extra, (w.expect-w.values)*(w.valueBytes/w.values)*5/4)
	}
	b := make([]byte, 0, w.buf.Len()+extra)
	w.buf = *bytes.NewBuffer(append(b, w.buf.Bytes()...))
}

// pieces returns every written byte, in order, as slices.
func (w *jsonWriter) pieces() [][]byte {
	if w.buf.Len() == 0 {
		return w.chunks
	}
	return append(w.chunks, w.buf.Bytes())
}

// spill writes the buffer to out once it holds more than limit bytes, so
// that a large export never sits in memory whole. Spans are meaningless
// on a spilling writer.
func (w *jsonWriter) spill(limit int) {
	if w.out == nil || w.buf.Len() <= limit || w.err != nil {
		return
	}
	b := w.buf.Bytes()
	if w.wire {
		b = unescapeHTML(b)
	}
	_, w.err = w.out.Write(b)
	w.buf.Reset()
}

// indentAll is the compactFrom of a writer that indents everything.
const indentAll = 1 << 30

// indented writes the JSON value b, compact or not, indented as a value
// at depth (json.Indent skips the whitespace it finds).
func (w *jsonWriter) indented(b []byte, depth int) {
	if err := json.Indent(&w.buf, b, indent(depth), "  "); err != nil {
		w.fail(err)
	}
}

func indent(depth int) string { return strings.Repeat("  ", depth) }

func (w *jsonWriter) lines(depth int) bool { return depth < w.compactFrom }

// value writes v as a value at depth and returns its span.
func (w *jsonWriter) value(v any, depth int) Span {
	start := w.size()
	if !w.lines(depth) && w.appendFast(v) {
		return Span{start, w.size() - start}
	}
	if t, ok := v.(*ToolSpec); ok {
		v = t.wire()
	}
	var b []byte
	var err error
	if w.lines(depth) {
		b, err = json.MarshalIndent(v, indent(depth), "  ")
	} else {
		b, err = json.Marshal(v)
	}
	w.writeBig(b)
	if err != nil && w.err == nil {
		w.err = err
	}
	return Span{start, w.size() - start}
}

// keyRoom is the room left after a hand-encoded value for the key of the
// next one, so that writing a key never grows the buffer by doubling it.
const keyRoom = 256

// appendFast writes the compact JSON of the payload types that have a
// hand-written encoder straight into the buffer, with room for the
// largest such value so far, and reports whether v was one of them.
func (w *jsonWriter) appendFast(v any) bool {
	var b []byte
	var err error
	switch x := v.(type) {
	case *ToolSpec:
		w.room(w.last + keyRoom)
		b, err = x.AppendJSON(w.buf.AvailableBuffer())
	case *summaryWire:
		w.room(w.last + keyRoom)
		b, err = appendSummaryWire(w.buf.AvailableBuffer(), x)
	default:
		return false
	}
	w.last = max(w.last, len(b)+len(b)/4)
	w.values, w.valueBytes = w.values+1, w.valueBytes+len(b)
	w.room(len(b) + keyRoom) // a value larger than the room left moves the buffer once
	w.buf.Write(b)
	w.fail(err)
	return true
}

// fail records the first error of a write.
func (w *jsonWriter) fail(err error) {
	if w.err == nil {
		w.err = err
	}
}

// key starts member i of an object at depth.
func (w *jsonWriter) key(name string, i, depth int) {
	if i > 0 {
		w.buf.WriteByte(',')
	}
	k, _ := json.Marshal(name)
	if w.lines(depth) {
		w.buf.WriteString("\n" + indent(depth+1) + string(k) + ": ")
		return
	}
	w.buf.WriteString(string(k) + ":")
}

// elem starts element i of an array at depth.
func (w *jsonWriter) elem(i, depth int) {
	if i > 0 {
		w.buf.WriteByte(',')
	}
	if w.lines(depth) {
		w.buf.WriteString("\n" + indent(depth+1))
	}
}

// close ends a container at depth that had n members.
func (w *jsonWriter) close(c byte, n, depth int) {
	if n > 0 && w.lines(depth) {
		w.buf.WriteString("\n" + indent(depth))
	}
	w.buf.WriteByte(c)
}

// field is one member of an object written piece by piece: a value, or a
// function that writes the value itself at the given depth.
type field struct {
	name  string
	value any
	write func(depth int)
}

// object writes an object at depth from fields given in key order.
func (w *jsonWriter) object(depth int, fields []field) Span {
	start := w.size()
	w.buf.WriteByte('{')
	for i, f := range fields {
		w.key(f.name, i, depth)
		if f.write != nil {
			f.write(depth + 1)
		} else {
			w.value(f.value, depth+1)
		}
	}
	w.close('}', len(fields), depth)
	return Span{start, w.size() - start}
}

// Encode serializes r into the byte-stable catalog file and its index.
// surfaceHash is the semantic hash of the effective command registry.
//
// The catalog object is written first; the file then starts as the
// envelope's head, that object and the envelope up to the tools, with a
// placeholder of the source hash's length, and the tools are written
// straight after it, so that the file is never assembled from a second
// copy. The source hash is computed last and put in place.
func Encode(r *Registry, surfaceHash string) (data, index []byte, err error) {
	cat, idx := encodeCatalog(r)
	if cat.err != nil {
		return nil, nil, cat.err
	}
	w := fileWriter(cat, surfaceHash, r.ToolCount())
	toolsBase := w.size()
	encodeTools(w, r, idx)
	if w.err != nil {
		return nil, nil, w.err
	}
	w.room(len(fileTail))
	w.buf.WriteString(fileTail)
	data = w.buf.Bytes()
	hash := sourceHash(cat.pieces(), surfaceHash, [][]byte{data[toolsBase : len(data)-len(fileTail)]})
	idx.SourceHashSpan = Span{len(fileHead) + cat.size() + len(midBeforeHash), len(strconv.Quote(hash))}
	copy(idx.SourceHashSpan.of(data), strconv.Quote(hash))
	idx.SourceHash, idx.SurfaceHash = hash, surfaceHash
	shiftIndex(idx, len(fileHead), 0)
	index, err = encodeIndex(idx, data)
	return data, index, err
}

// encodeIndex writes the index file of idx: the index with compact_tools
// as [], and in its place the compact section, each tool's --compact form
// on a line of its own, computed from its full leaf in data.
func encodeIndex(idx *Index, data []byte) ([]byte, error) {
	section, err := compactSection(idx, data)
	if err != nil {
		return nil, err
	}
	idx.Version, idx.CompactSize, idx.CompactTools = IndexVersion, len(section), json.RawMessage("[]")
	b, err := json.MarshalIndent(idx, "", " ")
	if err != nil {
		return nil, err
	}
	b = append(b[:len(b)-len("[]\n}")], section...)
	return append(b, compactTail...), nil
}

// compactSection writes the compact form of every tool of idx, in index
// order, as a JSON array with one tool per line, and records each span
// (from the start of the section) in idx.
func compactSection(idx *Index, data []byte) ([]byte, error) {
	forms, err := compactForms(idx, data)
	if err != nil || len(forms) == 0 {
		return []byte("[]"), err
	}
	b := []byte{'['}
	for i, form := range forms {
		b = append(b, "\n  "...)
		idx.Tools[i].Compact = Span{len(b), len(form)}
		b = append(b, form...)
		if i < len(forms)-1 {
			b = append(b, ',')
		}
	}
	return append(b, "\n ]"...), nil
}

// compactForms computes the compact form of every tool of idx from its
// full leaf in data, spread over the CPUs.
func compactForms(idx *Index, data []byte) ([][]byte, error) {
	forms := make([][]byte, len(idx.Tools))
	errs := make([]error, len(idx.Tools))
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(forms); i += workers {
				forms[i], errs[i] = compactStored(idx.Tools[i].Full.of(data))
			}
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("catalog: compact form of %s: %w", idx.Tools[i].Canonical, err)
		}
	}
	return forms, nil
}

// The envelope of the catalog file around its catalog and tools objects.
const (
	fileHead      = "{\n  \"catalog\": "
	midBeforeHash = ",\n  \"source_hash\": "
)

var fileTail = ",\n  \"version\": " + strconv.Itoa(SnapshotVersion) + "\n}\n"

// hashPlaceholder has the length of a source hash, sha256: and 64 hex
// digits.
var hashPlaceholder = "sha256:" + strings.Repeat("0", 64)

// fileWriter returns the writer of the tools object: a whole writer that
// already holds the file up to it, with the source hash's placeholder, and
// expects tools values.
func fileWriter(cat *jsonWriter, surfaceHash string, tools int) *jsonWriter {
	mid := midBeforeHash + strconv.Quote(hashPlaceholder) + ",\n  \"surface_hash\": " + strconv.Quote(surfaceHash) + ",\n  \"tools\": "
	head := make([]byte, 0, len(fileHead)+cat.size()+len(mid)+blockSize)
	head = append(head, fileHead...)
	for _, p := range cat.pieces() {
		head = append(head, p...)
	}
	head = append(head, mid...)
	return &jsonWriter{compactFrom: 2, whole: true, expect: tools, buf: *bytes.NewBuffer(head)}
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// encodeCatalog writes the `catalog` object at depth 1.
func encodeCatalog(r *Registry) (*jsonWriter, *Index) {
	w, idx := &jsonWriter{compactFrom: 3}, &Index{Version: IndexVersion}
	products := func(depth int) {
		start := w.size()
		w.buf.WriteByte('[')
		for i := range r.Products {
			w.elem(i, depth)
			idx.Products = append(idx.Products, encodeProduct(w, &r.Products[i], depth+1, idx))
		}
		w.close(']', len(r.Products), depth)
		idx.CatalogProducts = Span{start, w.size() - start}
	}
	idx.Catalog = w.object(1, []field{
		{"agent_metadata", r.Header.AgentMetadata, nil}, {"count", len(r.Products), nil},
		{"interface_metadata", r.Header.InterfaceMetadata, nil}, {"kind", Kind, nil},
		{"level", "catalog", nil}, {"products", nil, products},
		{"source", CatalogSource, nil}, {"tool_count", r.ToolCount(), nil},
	})
	return w, idx
}

// encodeProduct writes one product summary at depth and indexes its tools.
func encodeProduct(w *jsonWriter, p *ProductSpec, depth int, idx *Index) IndexProduct {
	h := p.head()
	ip := IndexProduct{ID: p.ID}
	tools := func(d int) {
		start := w.size()
		w.buf.WriteByte('[')
		for i := range p.Tools {
			w.elem(i, d)
			ip.Tools = append(ip.Tools, len(idx.Tools))
			idx.Tools = append(idx.Tools, indexTool(&p.Tools[i], len(idx.Products), w.value(p.Tools[i].Summary(), d+1)))
		}
		w.close(']', len(p.Tools), d)
		ip.ToolsSpan = Span{start, w.size() - start}
	}
	ip.Span = w.object(depth, []field{
		{"agent_metadata_source", h.AgentMetadataSource, nil}, {"agent_source_refs", h.AgentSourceRefs, nil},
		{"agent_summary", h.AgentSummary, nil}, {"agent_summary_source", h.AgentSummarySource, nil},
		{"avoid_when", h.AvoidWhen, nil}, {"description", h.Description, nil},
		{"field_provenance", h.FieldProvenance, nil}, {"id", h.ID, nil}, {"name", h.Name, nil},
		{"runtime", h.Runtime, nil}, {"tool_count", h.ToolCount, nil}, {"tools", nil, tools},
		{"use_when", h.UseWhen, nil},
	})
	return ip
}

func indexTool(t *ToolSpec, product int, summary Span) IndexTool {
	paths := append([]string{t.Identity.PrimaryCLIPath}, t.Identity.Aliases...)
	return IndexTool{Canonical: t.Identity.CanonicalPath, Product: product, Summary: summary, Paths: paths}
}

// encodeTools writes the `tools` object at depth 1 to w, keyed by
// canonical path in order, and records each full leaf span in idx.
func encodeTools(w *jsonWriter, r *Registry, idx *Index) {
	byCanonical := map[string]*ToolSpec{}
	pos := map[string]int{}
	for i, t := range r.Tools() {
		byCanonical[t.Identity.CanonicalPath] = t
		pos[t.Identity.CanonicalPath] = i
	}
	fields := make([]field, 0, len(byCanonical))
	for _, c := range slices.Sorted(maps.Keys(byCanonical)) {
		c := c
		fields = append(fields, field{c, nil, func(d int) { idx.Tools[pos[c]].Full = w.value(byCanonical[c], d) }})
	}
	w.object(1, fields)
}

// sourceHash is sha256 of the compact JSON of {catalog, surface_hash,
// tools, version}, as dws computes source_hash; the pieces are compacted
// while hashing.
func sourceHash(catalog [][]byte, surfaceHash string, tools [][]byte) string {
	h := sha256.New()
	h.Write([]byte(`{"catalog":`))
	compactInto(h, catalog)
	h.Write([]byte(`,"surface_hash":` + strconv.Quote(surfaceHash) + `,"tools":`))
	compactInto(h, tools)
	h.Write([]byte(`,"version":` + strconv.Itoa(SnapshotVersion) + `}`))
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// compactInto writes the pieces of a valid JSON text to w without the
// whitespace outside strings (what json.Compact does to valid input). A
// string is crossed with bytes.IndexByte from quote to quote, since most
// of a catalog is strings.
func compactInto(w io.Writer, pieces [][]byte) {
	var c compactor
	for _, p := range pieces {
		c.piece(w, p)
	}
}

// compactor carries the state of compactInto from one piece to the next.
type compactor struct {
	inString, escaped bool
}

func (c *compactor) piece(w io.Writer, p []byte) {
	start := 0
	for i := 0; i < len(p); i++ {
		switch b := p[i]; {
		case c.escaped:
			c.escaped = false
		case c.inString:
			i = c.skipString(p, i) - 1
		case b == '"':
			c.inString = true
		case b == ' ' || b == '\n' || b == '\t' || b == '\r':
			w.Write(p[start:i])
			start = i + 1
		}
	}
	w.Write(p[start:])
}

// skipString moves through a string from i, inside it, and returns the
// offset after its closing quote, or after its last byte in p (a
// backslash there escapes the first byte of the next piece).
func (c *compactor) skipString(p []byte, i int) int {
	for {
		q := bytes.IndexByte(p[i:], '"')
		if q < 0 {
			q = len(p) - i
		}
		if e := bytes.IndexByte(p[i:i+q], '\\'); e >= 0 {
			if i+e+1 == len(p) {
				c.escaped = true
				return len(p)
			}
			i += e + 2
			continue
		}
		if i+q == len(p) {
			return len(p)
		}
		c.inString = false
		return i + q + 1
	}
}

func shiftIndex(idx *Index, catBase, toolsBase int) {
	idx.Catalog = idx.Catalog.shift(catBase)
	idx.CatalogProducts = idx.CatalogProducts.shift(catBase)
	for i := range idx.Products {
		p := &idx.Products[i]
		p.Span, p.ToolsSpan = p.Span.shift(catBase), p.ToolsSpan.shift(catBase)
	}
	for i := range idx.Tools {
		t := &idx.Tools[i]
		t.Summary, t.Full = t.Summary.shift(catBase), t.Full.shift(toolsBase)
	}
}
