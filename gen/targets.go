package gen

import (
	"path"

	"github.com/cetpgen/cetpgen/gen/emit"
	"github.com/cetpgen/cetpgen/gen/emit/cli"
	"github.com/cetpgen/cetpgen/gen/emit/golang"
	"github.com/cetpgen/cetpgen/gen/emit/goserver"
	"github.com/cetpgen/cetpgen/gen/emit/kotlin"
	"github.com/cetpgen/cetpgen/gen/emit/manifest"
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
	// Owned, when set, is the directory one Provider owns under the
	// output root instead of Dir/<slug> (the Go server skeleton's
	// targets.go.server); it lies below Dir.
	Owned func(p *ir.Provider) string
}

// ownedDir is the directory under the output root that the target's
// files for p lie in.
func (t Target) ownedDir(p *ir.Provider) string {
	if t.Owned != nil {
		return t.Owned(p)
	}
	return path.Join(t.Dir, p.Slug)
}

// render runs the target's emitter on p.
func (t Target) render(p *ir.Provider, root string) ([]emit.File, error) {
	if t.EmitAt != nil {
		return t.EmitAt(p, root)
	}
	return t.Emit(p)
}

// targets are every target, in the order they run: the one list, so
// that what cetpgen generates is read in one place rather than gathered
// from init functions.
var targets = []Target{
	// The Consumer CLI and its Agent schema catalog: out/cli/<slug>/.
	{Name: "catalog", Dir: cli.Dir, Emit: cli.Generate},
	// The typed Go Provider package and Client: out/go/<slug>/.
	{Name: "go", Dir: golang.Dir, Emit: golang.Generate},
	// The Go server skeleton: out/cmd/<slug>/main.go (or the directory
	// targets.go.server names), written once.
	{Name: "go-server", Dir: goserver.Dir, EmitAt: goserver.Generate, Owned: goserver.OwnedDir},
	// The Kotlin Provider on the ClawSeed SDK: out/kotlin/<slug>/.
	{Name: "kotlin", Dir: kotlin.Dir, Emit: kotlin.Generate},
	// The Android manifest fragments: out/android/<slug>/.
	{Name: "manifest", Dir: manifest.Dir, Emit: manifest.Generate},
}

// Targets returns every target.
func Targets() []Target { return append([]Target(nil), targets...) }
