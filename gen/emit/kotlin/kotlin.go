package kotlin

import (
	"bytes"
	"fmt"
	"path"
	"strings"
	"text/template"

	"github.com/cetpgen/cetpgen/gen/emit"
	"github.com/cetpgen/cetpgen/gen/internal/par"
	"github.com/cetpgen/cetpgen/gen/ir"
	"github.com/cetpgen/cetpgen/templates"
)

// Dir is the kotlin target's directory under the output root.
const Dir = "kotlin"

// tmpl holds the parsed Kotlin templates.
var tmpl = template.Must(template.New("kotlin").ParseFS(templates.FS, "kotlin/*.tmpl"))

// Generate renders the Kotlin files of one Provider under kotlin/<slug>/.
// The files are built and rendered in parallel; the list keeps its order.
func Generate(p *ir.Provider) ([]emit.File, error) {
	m := newModel(p)
	renders := m.renders()
	files := make([]emit.File, len(renders))
	errs := make([]error, len(renders))
	par.Each(len(renders), func(i int) {
		r := renders[i]
		data, err := r.render()
		files[i] = emit.File{Path: path.Join(Dir, p.Slug, r.file), Data: data, UserOwned: r.userOwned}
		errs[i] = err
	})
	if err := firstError(errs); err != nil {
		return nil, err
	}
	return files, nil
}

// render is one file to render: template name, the function building its
// view, and file name.
type render struct {
	template  string
	file      string
	view      func() (any, error)
	userOwned bool
}

// render builds the file's view and executes its template.
func (r render) render() ([]byte, error) {
	v, err := r.view()
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if s, ok := v.(sized); ok {
		buf.Grow(s.size() + 64<<10)
	}
	if err := tmpl.ExecuteTemplate(&buf, r.template, v); err != nil {
		return nil, fmt.Errorf("render %s: %w", r.template, err)
	}
	return buf.Bytes(), nil
}

// sized is a view holding rendered parts; size is their length, which
// the file's buffer reserves at once rather than growing to it.
type sized interface{ size() int }

// totalLen is the summed length of texts.
func totalLen(texts ...[]string) int {
	n := 0
	for _, ts := range texts {
		for _, t := range ts {
			n += len(t)
		}
	}
	return n
}

// view wraps a view builder that cannot fail.
func view[V any](f func() V) func() (any, error) {
	return func() (any, error) { return f(), nil }
}

// renders lists the files of the Provider, each with its view.
func (m *model) renders() []render {
	c := m.names.Class
	validators := func() (any, error) {
		v, err := m.validatorsView()
		if err != nil {
			return nil, fmt.Errorf("kotlin validators of %s: %w", m.p.Slug, err)
		}
		return v, nil
	}
	return []render{
		{template: "base.kt.tmpl", file: m.names.Base + ".kt", view: view(m.base)},
		{template: "types.kt.tmpl", file: c + "Types.kt", view: m.typesView},
		{template: "schemas.kt.tmpl", file: m.names.Schemas + ".kt", view: view(m.schemasView)},
		{template: "support.kt.tmpl", file: c + "Support.kt", view: view(m.supportView)},
		{template: "store.kt.tmpl", file: m.names.Store + ".kt", view: view(m.storeView)},
		{template: "service.kt.tmpl", file: m.names.Service + ".kt", view: view(m.serviceView)},
		{template: "validators.kt.tmpl", file: m.names.Validators + ".kt", view: validators},
		{template: "validators_support.kt.tmpl", file: m.names.Validation + ".kt", view: view(m.common)},
		{template: "skeleton.kt.tmpl", file: c + ".kt", view: view(m.skeletonView), userOwned: true},
	}
}

// renderEach executes the template name on the views of n parts in
// parallel and returns their texts, in order: the form for one large
// file's repeated parts (its declarations, its tools' functions).
func renderEach(n int, name string, view func(i int) any) ([]string, error) {
	out := make([]string, n)
	errs := make([]error, n)
	par.EachWith(n, func(buf *bytes.Buffer, i int) {
		buf.Reset()
		errs[i] = tmpl.ExecuteTemplate(buf, name, view(i))
		out[i] = buf.String()
	})
	if err := firstError(errs); err != nil {
		return nil, fmt.Errorf("render %s: %w", name, err)
	}
	return out, nil
}

// firstError returns the first error of errs, nil if there is none: the
// error a serial run would have stopped at.
func firstError(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// header returns the generated-file header as Kotlin line comments.
func header(source string) string {
	var lines []string
	for _, l := range emit.HeaderLines(source) {
		lines = append(lines, "// "+lineComment(l))
	}
	return strings.Join(lines, "\n")
}

// kotlinPackage quotes the segments of a package name that are keywords.
func kotlinPackage(pkg string) string {
	segs := strings.Split(pkg, ".")
	for i, s := range segs {
		segs[i] = quoted(s)
	}
	return strings.Join(segs, ".")
}
