package kotlin

import (
	"bytes"
	"fmt"
	"path"
	"strings"
	"text/template"

	"github.com/cetpgen/cetpgen/gen/emit"
	"github.com/cetpgen/cetpgen/gen/ir"
	"github.com/cetpgen/cetpgen/templates"
)

// Dir is the kotlin target's directory under the output root.
const Dir = "kotlin"

// tmpl holds the parsed Kotlin templates.
var tmpl = template.Must(template.New("kotlin").ParseFS(templates.FS, "kotlin/*.tmpl"))

// Generate renders the Kotlin files of one Provider under kotlin/<slug>/.
func Generate(p *ir.Provider) ([]emit.File, error) {
	m := newModel(p)
	renders, err := m.renders()
	if err != nil {
		return nil, err
	}
	var files []emit.File
	for _, r := range renders {
		var buf bytes.Buffer
		if err := tmpl.ExecuteTemplate(&buf, r.template, r.view); err != nil {
			return nil, fmt.Errorf("render %s: %w", r.template, err)
		}
		files = append(files, emit.File{
			Path:      path.Join(Dir, p.Slug, r.file),
			Data:      buf.Bytes(),
			UserOwned: r.userOwned,
		})
	}
	return files, nil
}

// render is one file to render: template name, view and file name.
type render struct {
	template  string
	file      string
	view      any
	userOwned bool
}

// renders lists the files of the Provider, each with its view.
func (m *model) renders() ([]render, error) {
	c := m.names.Class
	validators, err := m.validatorsView()
	if err != nil {
		return nil, fmt.Errorf("kotlin validators of %s: %w", m.p.Slug, err)
	}
	return []render{
		{template: "base.kt.tmpl", file: m.names.Base + ".kt", view: m.baseView()},
		{template: "types.kt.tmpl", file: c + "Types.kt", view: m.typesView()},
		{template: "schemas.kt.tmpl", file: m.names.Schemas + ".kt", view: m.schemasView()},
		{template: "support.kt.tmpl", file: c + "Support.kt", view: m.supportView()},
		{template: "store.kt.tmpl", file: m.names.Store + ".kt", view: m.storeView()},
		{template: "service.kt.tmpl", file: m.names.Service + ".kt", view: m.serviceView()},
		{template: "validators.kt.tmpl", file: m.names.Validators + ".kt", view: validators},
		{template: "validators_support.kt.tmpl", file: m.names.Validation + ".kt", view: m.common()},
		{template: "skeleton.kt.tmpl", file: c + ".kt", view: m.skeletonView(), userOwned: true},
	}, nil
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
