package gen

import "github.com/cetpgen/cetpgen/gen/emit/cli"

// init registers the catalog target: the Consumer CLI and its Agent schema
// catalog in out/cli/<slug>/.
func init() { targets = append(targets, Target{Name: "catalog", Dir: cli.Dir, Emit: cli.Generate}) }
