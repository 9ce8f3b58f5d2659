// Command cetp is a small CETP v2 Consumer for the command line: it lists
// the tools of a Provider socket, calls them, follows and cancels their
// background operations. All behaviour lives in package
// runtime/cetpcmd.
package main

import (
	"os"

	"github.com/cetpgen/cetpgen/runtime/cetpcmd"
)

func main() { os.Exit(cetpcmd.Main()) }
