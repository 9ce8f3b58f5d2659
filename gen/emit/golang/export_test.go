package golang

import (
	"bytes"

	"github.com/cetpgen/cetpgen/gen/emit"
	"github.com/cetpgen/cetpgen/gen/ir"
	"github.com/dave/jennifer/jen"
)

// GenerateChunks is Generate with chunks of the given weight (0: each
// file rendered and formatted whole).
func GenerateChunks(p *ir.Provider, weight int) ([]emit.File, error) {
	return generate(p, weight)
}

// UnitLayout is one unit of a generated file: its unformatted rendering,
// what layUnit makes of it (ok false when it does not know its shape)
// and what go/format makes of it alone.
type UnitLayout struct {
	File      string
	Raw, Laid []byte
	Formatted []byte
	Known     bool
}

// UnitLayouts renders every unit of p's Go files both ways.
func UnitLayouts(p *ir.Provider) ([]UnitLayout, error) {
	tools := toolList(p)
	uses := make([]helperUses, len(p.Decls))
	files := map[string][]unit{
		"doc.go":      {{render: func(f *jen.File) { renderDoc(f, p) }}},
		"types.go":    typeUnits(p, uses),
		"provider.go": providerUnits(p, tools),
		"client.go":   clientUnits(p, tools),
	}
	var out []UnitLayout
	for _, name := range []string{"doc.go", "types.go", "provider.go", "client.go"} {
		units := files[name]
		if name == "types.go" {
			for _, u := range units {
				u.render(jen.NewFile(p.Targets.GoPackage))
			}
			if h := helperUnit(uses); h != nil {
				units = append(units, *h)
			}
		}
		for _, u := range units {
			f := newFile(p)
			f.NoFormat = true
			u.render(f)
			var raw bytes.Buffer
			if err := f.Render(&raw); err != nil {
				return nil, err
			}
			ul := UnitLayout{File: name, Raw: raw.Bytes()}
			if _, src, ok := cutUnformatted(raw.Bytes(), p.Targets.GoPackage); ok {
				ul.Raw = src
				ul.Laid, ul.Known = layUnit(src)
			}
			formatted, err := renderFile(p, false, u.render)
			if err != nil {
				return nil, err
			}
			fm, _ := cut(formatted)
			ul.Formatted = fm.body
			out = append(out, ul)
		}
	}
	return out, nil
}
