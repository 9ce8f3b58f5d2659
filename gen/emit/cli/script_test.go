package cli_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/cetpgen/cetpgen/runtime/binding/unixsock"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/rogpeppe/go-internal/testscript"
)

// scriptBinaries are the programs the scripts run, built from the
// module: the generated fitness CLI, cetp and cetpgen.
var scriptBinaries = map[string]string{
	"cetp-fitness": "./out/cli/fitness",
	"cetp":         "./cmd/cetp",
	"cetpgen":      "./cmd/cetpgen",
}

// TestScripts runs the user-facing scenarios of testdata/script against
// the built generated CLI (and cetp, cetpgen beside it, where the two
// must agree). The serve command of the scripts serves a Provider of the
// fitness spec, whose tools record the call and answer CONFLICT after
// every gate (a confirmation included, approved), on a socket in $WORK.
func TestScripts(t *testing.T) {
	bin := t.TempDir()
	for name, pkg := range scriptBinaries {
		cmd := exec.Command("go", "build", "-o", filepath.Join(bin, name), pkg)
		cmd.Dir = repoRoot
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, out)
		}
	}
	prov := providerOf(t, load(t, filepath.Join(repoRoot, "specs/fitness")), &calls{})
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("PATH", bin+string(os.PathListSeparator)+env.Getenv("PATH"))
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"serve": func(ts *testscript.TestScript, neg bool, args []string) { serveScript(ts, neg, args, prov) },
		},
	})
}

// serveScript is the script command "serve NAME": it serves p on the
// socket $WORK/NAME until the script ends.
func serveScript(ts *testscript.TestScript, neg bool, args []string, p *provider.Provider) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: serve NAME")
	}
	ln, err := unixsock.Listen(ts.MkAbs(args[0]), unixsock.DefaultSocketFileMode)
	ts.Check(err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- unixsock.Serve(ctx, ln, p, unixsock.Options{}) }()
	ts.Defer(func() {
		cancel()
		<-done
	})
}
