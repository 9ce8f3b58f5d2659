// Command cetpgen validates CETP v2 Provider specs and generates code from
// them. All behaviour lives in package cli.
package main

import (
	"os"

	"github.com/cetpgen/cetpgen/gen/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
