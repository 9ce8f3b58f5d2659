package gen

import (
	"github.com/cetpgen/cetpgen/gen/emit"
	"github.com/cetpgen/cetpgen/gen/ir"
)

// Target is one kind of generated output.
type Target struct {
	// Name is what --target accepts.
	Name string
	// Dir is the target's directory under the output root; each Provider
	// owns Dir/<slug>/ and every file it emits lies below it.
	Dir string
	// Emit renders one Provider. It reads only the IR.
	Emit func(p *ir.Provider) ([]emit.File, error)
}

// targets are the registered targets, in the order they run.
var targets []Target

// Targets returns the registered targets.
func Targets() []Target { return append([]Target(nil), targets...) }
