package goserver_test

import (
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/cetpgen/cetpgen/gen"
	"github.com/cetpgen/cetpgen/gen/emit"
	"github.com/cetpgen/cetpgen/gen/emit/golang"
	"github.com/cetpgen/cetpgen/gen/emit/goserver"
	"github.com/cetpgen/cetpgen/gen/ir"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/golden")

// repoRoot is the repository root, relative to this package.
const repoRoot = "../../.."

// specDirs are the example specs and the Go emitter's torture spec, whose
// tool and type names were not written with this emitter in mind.
func specDirs(t *testing.T) []string {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join(repoRoot, "specs", "*"))
	if err != nil {
		t.Fatal(err)
	}
	dirs = append(dirs, filepath.Join(repoRoot, "gen", "emit", "golang", "testdata", "specs", "torture"))
	sort.Strings(dirs)
	return dirs
}

func load(t *testing.T) []*ir.Provider {
	t.Helper()
	ps, diags, err := gen.Check(gen.OSSource, specDirs(t))
	if err != nil || diags.HasErrors() {
		t.Fatalf("check: %v %v", err, diags)
	}
	return ps
}

func generate(t *testing.T, p *ir.Provider, root string) emit.File {
	t.Helper()
	files, err := goserver.Generate(p, root)
	if err != nil || len(files) != 1 {
		t.Fatalf("generate %s: %v %v", p.Dir, files, err)
	}
	f := files[0]
	if !f.UserOwned || emit.IsGenerated(f.Data) || f.Path != "cmd/"+p.Slug+"/main.go" {
		t.Fatalf("%s: the skeleton must be a user-owned cmd/%s/main.go without the generated marker", f.Path, p.Slug)
	}
	return f
}

// TestGolden compares each skeleton with testdata/golden/<slug>.go.txt.
func TestGolden(t *testing.T) {
	for _, p := range load(t) {
		f := generate(t, p, filepath.Join(repoRoot, "out"))
		golden := filepath.Join("testdata", "golden", p.Slug+".go.txt")
		if *update {
			if err := os.WriteFile(golden, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test -update)", err)
		}
		if string(want) != string(f.Data) {
			t.Errorf("%s differs from %s (go test -update rewrites it)", f.Path, golden)
		}
		if !strings.Contains(string(f.Data), `"github.com/cetpgen/cetpgen/out/go/`+p.Slug+`"`) {
			t.Errorf("%s does not import the generated package by its module path", f.Path)
		}
	}
}

// TestSkeletonsBuild compiles every skeleton against its generated package,
// both laid over the repository's out/ with go build -overlay, so that
// nothing is written into the tree.
func TestSkeletonsBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build")
	}
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	overlay := map[string]string{}
	var pkgs []string
	for i, p := range load(t) {
		files, err := golang.Generate(p)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, generate(t, p, filepath.Join(root, "out")))
		for j, f := range files {
			src := filepath.Join(tmp, strings.Repeat("x", i+1)+"_"+strings.Repeat("y", j+1)+".go")
			if err := os.WriteFile(src, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
			overlay[filepath.Join(root, "out", filepath.FromSlash(f.Path))] = src
		}
		pkgs = append(pkgs, "./out/cmd/"+p.Slug)
	}
	data, _ := json.Marshal(map[string]any{"Replace": overlay})
	ov := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(ov, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", append([]string{"build", "-o", os.DevNull, "-overlay", ov}, pkgs...)...)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build of the skeletons: %v\n%s", err, out)
	}
}

// TestImportPathWithoutModule renders a skeleton for an output root that
// no go.mod lies above: the import is a placeholder the comment explains.
func TestImportPathWithoutModule(t *testing.T) {
	p := load(t)[0]
	f := generate(t, p, t.TempDir())
	s := string(f.Data)
	if !strings.Contains(s, `"`+goserver.PlaceholderModule+`/go/`+p.Slug+`"`) || !strings.Contains(s, "found no go.mod") {
		t.Fatalf("without a module:\n%s", s)
	}
}

// TestImportPathOfANestedModule puts the output root two levels inside a
// module whose go.mod quotes its path and carries comments.
func TestImportPathOfANestedModule(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("// the notes app\nmodule \"example.com/notes\" // quoted\n\ngo 1.26\n"), 0o644)
	root := filepath.Join(dir, "server", "gen")
	os.MkdirAll(root, 0o755)
	p := load(t)[0]
	f := generate(t, p, root)
	if !strings.Contains(string(f.Data), `"example.com/notes/server/gen/go/`+p.Slug+`"`) {
		t.Fatalf("nested module:\n%s", f.Data)
	}
}

// TestServerDirFromSpec renders the skeleton of a Provider whose spec sets
// targets.go.server: the file lands there, the command is named after its
// last element, and the comment's go run line points at it.
func TestServerDirFromSpec(t *testing.T) {
	p := *load(t)[0]
	p.Targets.GoServerDir = "cmd/tools/" + p.Slug + "-server"
	files, err := goserver.Generate(&p, "out")
	if err != nil || len(files) != 1 {
		t.Fatalf("generate: %v %v", files, err)
	}
	f := files[0]
	if want := p.Targets.GoServerDir + "/main.go"; f.Path != want || goserver.OwnedDir(&p) != p.Targets.GoServerDir {
		t.Fatalf("skeleton at %s (owned %s), want %s", f.Path, goserver.OwnedDir(&p), want)
	}
	for _, want := range []string{
		`Name:       "` + p.Slug + `-server"`,
		"go run ./out/cmd/tools/" + p.Slug + "-server --socket",
		"// Command " + p.Slug + "-server serves",
	} {
		if !strings.Contains(string(f.Data), want) {
			t.Errorf("the skeleton lacks %q:\n%s", want, f.Data)
		}
	}
}
