package golang

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"

	"github.com/cetpgen/cetpgen/gen/emit"
	"github.com/cetpgen/cetpgen/gen/ir"
	"github.com/dave/jennifer/jen"
)

// unit is one piece of a file: a top-level declaration with its doc
// comment, or a few that belong together. Every unit starts with a doc
// comment, so gofmt puts one blank line before it and formats it the same
// whatever precedes it; that is what lets a file be formatted in chunks.
type unit struct {
	// weight estimates the unit's share of the file's formatting work, in
	// declarations, so that chunks are of about the same cost.
	weight int
	render func(f *jen.File)
	// asIs marks a unit that jennifer renders exactly as gofmt prints it
	// (a comment line and a declaration on one line, nothing to align), so
	// formatting it would only spend time.
	asIs bool
	// packageDoc marks the unit that writes the package comment, which
	// belongs to the file's head: its chunk is formatted by go/format.
	packageDoc bool
}

// chunkWeight is the weight of units formatted together: small enough
// that the big files split into dozens of chunks for the pool to balance,
// large enough that each chunk's package clause and imports cost little.
const chunkWeight = 64

// chunk is a run of units of one file, rendered and formatted as a file
// of its own. The first chunk of a file carries the file's header.
type chunk struct {
	units []unit
	first bool
	// asIs is set when every unit is as-is and the chunk is not formatted.
	asIs bool
	// laidOut makes each unit laid out by layUnit instead of go/format
	// where it knows the unit's shape.
	laidOut bool
	// out is the chunk's formatted file; a laid-out chunk has head, the
	// file's header and package clause, and parts, one per unit, instead.
	out   []byte
	head  []byte
	parts []formatted
	err   error
}

// weight is the chunk's share of the formatting work.
func (c *chunk) weight() int {
	w := 0
	for _, u := range c.units {
		w += u.weight
	}
	return w
}

// chunksOf cuts units into runs of about budget weight each, as-is units
// apart from the others; a unit heavier than budget is a chunk alone. A
// budget of 0 makes each file one chunk formatted whole. A file of no
// units is one empty chunk: the header and package clause.
func chunksOf(units []unit, budget int) []*chunk {
	if len(units) == 0 || budget == 0 {
		return []*chunk{{first: true, units: units}}
	}
	var out []*chunk
	var cur *chunk
	w := 0
	for _, u := range units {
		asIs := u.asIs && cur != nil
		if cur == nil || w > 0 && w+u.weight > budget || asIs != cur.asIs {
			cur = &chunk{first: cur == nil, asIs: asIs}
			out = append(out, cur)
			w = 0
		}
		cur.units = append(cur.units, u)
		cur.laidOut = (len(cur.units) == 1 || cur.laidOut) && !u.packageDoc && !cur.asIs
		w += u.weight
	}
	return out
}

// render renders and formats the chunk as a file of the package.
func (c *chunk) render(p *ir.Provider) {
	if c.asIs {
		c.out, c.err = renderAsIs(p, c.units)
		return
	}
	if c.laidOut {
		c.head, c.parts, c.err = renderLaidOut(p, c.first, c.units)
		return
	}
	c.out, c.err = renderFile(p, c.first, func(f *jen.File) {
		for _, u := range c.units {
			u.render(f)
		}
	})
}

// renderAsIs renders as-is units without formatting, in the shape of a
// formatted file without imports: the package clause, then the units
// with one blank line between them. The units render together, cut
// apart by renderTogether, because jennifer puts no blank line between
// the items of a file it does not format.
//
//	package alerts
//
//	// createAlertInputSchema is the input schema of create_alert, in canonical JSON.
//	const createAlertInputSchema = "{...}"
func renderAsIs(p *ir.Provider, units []unit) ([]byte, error) {
	raw := rawBuffers.Get().(*bytes.Buffer)
	defer putRaw(raw)
	imports, pieces, ok, err := renderTogether(p, units, raw)
	if err != nil {
		return nil, err
	}
	// An import would mean a unit is not as-is after all.
	if !ok || len(imports) > 0 {
		return nil, fmt.Errorf("units rendered as is have imports or do not cut apart: %.80q", raw.Bytes())
	}
	clause := "package " + p.Targets.GoPackage + "\n"
	var b bytes.Buffer
	b.Grow(len(clause) + raw.Len() + len(units))
	b.WriteString(clause)
	for _, body := range pieces {
		b.WriteByte('\n')
		b.Write(bytes.TrimPrefix(body, []byte("\n")))
		b.WriteByte('\n')
	}
	return b.Bytes(), nil
}

// renderFile renders one file, with the generated-code header when
// header is set.
func renderFile(p *ir.Provider, header bool, body func(f *jen.File)) ([]byte, error) {
	f := newFile(p)
	if header {
		for _, l := range emit.HeaderLines(p.File) {
			f.HeaderComment("// " + commentLines(l)[0])
		}
	}
	body(f)
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// newFile is a jennifer file of the package that names every import
// by importNames.
func newFile(p *ir.Provider) *jen.File {
	f := jen.NewFile(p.Targets.GoPackage)
	// The hints are a map in the file, so their order does not matter.
	for path, name := range importNames {
		if name.hint {
			f.ImportName(path, name.name)
		}
	}
	return f
}

// importName is the name a file of this package imports a path by;
// hint marks the paths named by ImportName rather than known to jennifer
// as standard library packages.
type importName struct {
	name string
	hint bool
}

// importNames are every package the generated files import. Their names
// are distinct, so jennifer imports each without an alias in any file,
// whatever else the file imports: a chunk's import lines are the whole
// file's.
var importNames = map[string]importName{
	pkgJSON:     {name: "json"},
	pkgContext:  {name: "context"},
	pkgTime:     {name: "time"},
	pkgErrors:   {name: "errors"},
	pkgFmt:      {name: "fmt"},
	pkgProvider: {name: "provider", hint: true},
	pkgConsumer: {name: "consumer", hint: true},
	pkgProtocol: {name: "protocol", hint: true},
	pkgJSONVal:  {name: "jsonval", hint: true},
}

// formatted is a formatted file cut into its parts: everything up to and
// including the package clause's line, the import paths, and the
// declarations after the imports.
type formatted struct {
	head    []byte
	imports []string
	body    []byte
}

// cut splits the formatted output of a chunk; ok is false when it is not
// in the shape jennifer and gofmt give a file without an import alias.
func cut(out []byte) (fm formatted, ok bool) {
	i := 0
	for !bytes.HasPrefix(out[i:], []byte("package ")) {
		j := bytes.IndexByte(out[i:], '\n')
		if j < 0 {
			return fm, false
		}
		i += j + 1
	}
	j := bytes.IndexByte(out[i:], '\n')
	if j < 0 {
		return fm, false
	}
	fm.head, out = out[:i+j+1], out[i+j+1:]
	if len(out) == 0 {
		return fm, true
	}
	if !bytes.HasPrefix(out, []byte("\n")) {
		return fm, false
	}
	out = out[1:]
	if !bytes.HasPrefix(out, []byte("import ")) {
		fm.body = out
		return fm, true
	}
	if fm.imports, out, ok = cutImports(out); !ok || !bytes.HasPrefix(out, []byte("\n")) {
		return fm, false
	}
	fm.body = out[1:]
	return fm, true
}

// cutImports parses the import declaration at the start of out, one spec
// or a block, into its paths and returns what follows it; ok is false
// when a spec has an alias or a path not in importNames.
func cutImports(out []byte) (paths []string, rest []byte, ok bool) {
	return cutImportsIndented(out, "\t")
}

// cutImportsIndented is cutImports for a block whose specs start with
// indent: a tab as gofmt prints it, nothing as jennifer renders it
// unformatted.
func cutImportsIndented(out []byte, indent string) (paths []string, rest []byte, ok bool) {
	if !bytes.HasPrefix(out, []byte("import (\n")) {
		j := bytes.IndexByte(out, '\n')
		if j < 0 {
			return nil, nil, false
		}
		path, ok := importPath(out[len("import "):j])
		return []string{path}, out[j+1:], ok
	}
	out = out[len("import (\n"):]
	for !bytes.HasPrefix(out, []byte(")\n")) {
		j := bytes.IndexByte(out, '\n')
		if j < 1 || !bytes.HasPrefix(out, []byte(indent)) {
			return nil, nil, false
		}
		path, ok := importPath(out[len(indent):j])
		if !ok {
			return nil, nil, false
		}
		paths = append(paths, path)
		out = out[j+1:]
	}
	return paths, out[len(")\n"):], true
}

// importPath is the path of an import spec without an alias, when it is
// one of importNames.
func importPath(spec []byte) (string, bool) {
	path, err := strconv.Unquote(string(spec))
	if err != nil {
		return "", false
	}
	_, known := importNames[path]
	return path, known
}

// join puts the formatted chunks of one file together as gofmt formats
// the whole file: the first chunk's header and package clause, one import
// block of every chunk's paths in path order, then the declarations with
// one blank line between chunks. It fails when a chunk's output is not
// in the shape cut expects.
func join(chunks []*chunk) ([]byte, error) {
	var head []byte
	var parts []formatted
	for i, c := range chunks {
		if c.laidOut {
			parts = append(parts, c.parts...)
			if i == 0 {
				head = c.head
			}
			continue
		}
		fm, ok := cut(c.out)
		if !ok {
			return nil, fmt.Errorf("chunk %d of %d is not a formatted file without import aliases", i+1, len(chunks))
		}
		parts = append(parts, fm)
		if i == 0 {
			head = fm.head
		}
	}
	return assemble(head, parts), nil
}

// assemble puts formatted parts together as gofmt formats them in one
// file: head, one import block of every part's paths in path order, then
// the parts' declarations with one blank line between them.
func assemble(head []byte, parts []formatted) []byte {
	seen := map[string]bool{}
	var paths []string
	size := 0
	for _, fm := range parts {
		size += len(fm.body) + 1
		for _, p := range fm.imports {
			if !seen[p] {
				seen[p] = true
				paths = append(paths, p)
			}
		}
	}
	slices.Sort(paths)
	var b bytes.Buffer
	b.Grow(len(head) + 64*len(paths) + size)
	b.Write(head)
	writeImports(&b, paths)
	for _, fm := range parts {
		if len(fm.body) > 0 {
			b.WriteByte('\n')
			b.Write(fm.body)
		}
	}
	return b.Bytes()
}

// writeImports writes the import declaration gofmt prints for paths,
// sorted, after a blank line: one spec, or a block; nothing for none.
func writeImports(b *bytes.Buffer, paths []string) {
	switch len(paths) {
	case 0:
	case 1:
		fmt.Fprintf(b, "\nimport %s\n", strconv.Quote(paths[0]))
	default:
		b.WriteString("\nimport (\n")
		for _, p := range paths {
			fmt.Fprintf(b, "\t%s\n", strconv.Quote(p))
		}
		b.WriteString(")\n")
	}
}
