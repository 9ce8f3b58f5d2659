package golang

import (
	"bytes"
	"fmt"

	"github.com/cetpgen/cetpgen/gen/emit"
	"github.com/cetpgen/cetpgen/gen/ir"
)

// GenerateChunks is Generate with chunks of the given weight (0: each
// file rendered and formatted whole).
func GenerateChunks(p *ir.Provider, weight int) ([]emit.File, error) {
	return generate(p, weight)
}

// UnitLayout is one unit of a generated file: its unformatted rendering,
// the bytes Generate writes for it (Known: laid out by layUnit, else
// formatted by go/format) and what go/format makes of it alone.
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
	files := [][]unit{typeUnits(p, uses), providerUnits(p, tools), clientUnits(p, tools)}
	for _, u := range files[0] {
		u.render(newFile(p)) // records the helpers the declarations use
	}
	if h := helperUnit(uses); h != nil {
		files[0] = append(files[0], *h)
	}
	var out []UnitLayout
	for i, units := range files {
		for _, u := range units {
			var raw bytes.Buffer
			laid, known, err := layOutUnit(p, u, &raw)
			if err != nil {
				return nil, err
			}
			formatted, err := formatUnit(p, u)
			if err != nil {
				return nil, err
			}
			name := []string{"types.go", "provider.go", "client.go"}[i]
			out = append(out, UnitLayout{File: name, Raw: raw.Bytes(), Laid: laid.body, Formatted: formatted.body, Known: known})
		}
	}
	return out, nil
}

// CutApart reports, for every chunk of p's Go files that is laid out or
// as-is, whether its units rendered together cut apart into one piece
// per unit; an error names the first that does not.
func CutApart(p *ir.Provider) (chunks int, err error) {
	tools := toolList(p)
	uses := make([]helperUses, len(p.Decls))
	for _, units := range [][]unit{typeUnits(p, uses), providerUnits(p, tools), clientUnits(p, tools)} {
		for _, c := range chunksOf(units, chunkWeight) {
			if !c.laidOut && !c.asIs {
				continue
			}
			var raw bytes.Buffer
			if _, pieces, ok, err := renderTogether(p, c.units, &raw); err != nil || !ok {
				return chunks, fmt.Errorf("chunk of %d units cut into %d pieces (%v):\n%s", len(c.units), len(pieces), err, raw.Bytes())
			}
			chunks++
		}
	}
	return chunks, nil
}
