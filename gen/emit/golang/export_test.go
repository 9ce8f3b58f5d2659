package golang

import (
	"github.com/cetpgen/cetpgen/gen/emit"
	"github.com/cetpgen/cetpgen/gen/ir"
)

// GenerateChunks is Generate with chunks of the given weight (0: each
// file whole), failing
// when the chunks cannot be joined rather than rendering a file whole.
func GenerateChunks(p *ir.Provider, weight int) ([]emit.File, error) {
	return generate(p, weight, true)
}
