package gen

import "github.com/cetpgen/cetpgen/gen/emit/kotlin"

// init registers the Kotlin target: out/kotlin/<slug>/.
func init() {
	targets = append(targets, Target{Name: "kotlin", Dir: kotlin.Dir, Emit: kotlin.Generate})
}
