package cli

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets testscript run cetpgen as a command of its scripts.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"cetpgen": func() { os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the CLI scenarios of testdata/script: each a txtar of
// commands and the files they work on (see testscript's documentation).
// -update rewrites the files that cmp compares against.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: *update,
	})
}
