package gen

import "github.com/cetpgen/cetpgen/gen/emit/golang"

func init() { targets = append(targets, Target{Name: "go", Dir: golang.Dir, Emit: golang.Generate}) }
