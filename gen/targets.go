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
	// EmitAt, set instead of Emit, also gets the output root, for output
	// that refers to where it lands (the Go server skeleton's import
	// path).
	EmitAt func(p *ir.Provider, root string) ([]emit.File, error)
}

// render runs the target's emitter on p.
func (t Target) render(p *ir.Provider, root string) ([]emit.File, error) {
	if t.EmitAt != nil {
		return t.EmitAt(p, root)
	}
	return t.Emit(p)
}

// targets are the registered targets, in the order they run.
var targets []Target

// Targets returns the registered targets.
func Targets() []Target { return append([]Target(nil), targets...) }
