package golang

import (
	"github.com/cetpgen/cetpgen/gen/emit"
	"github.com/cetpgen/cetpgen/gen/ir"
)

// GenerateChunks is Generate with chunks of the given weight (0: each
// file rendered and formatted whole).
func GenerateChunks(p *ir.Provider, weight int) ([]emit.File, error) {
	return generate(p, weight)
}
