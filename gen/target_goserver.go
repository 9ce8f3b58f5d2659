package gen

import "github.com/cetpgen/cetpgen/gen/emit/goserver"

// init registers the Go server skeleton: out/cmd/<slug>/main.go, written
// once.
func init() {
	targets = append(targets, Target{Name: "go-server", Dir: goserver.Dir, EmitAt: goserver.Generate})
}
