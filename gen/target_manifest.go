package gen

import "github.com/cetpgen/cetpgen/gen/emit/manifest"

// init registers the Android manifest target: out/android/<slug>/.
func init() {
	targets = append(targets, Target{Name: "manifest", Dir: manifest.Dir, Emit: manifest.Generate})
}
