package golang_test

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cetpgen/cetpgen/gen"
	"github.com/cetpgen/cetpgen/gen/emit"
	"github.com/cetpgen/cetpgen/gen/emit/golang"
	"github.com/cetpgen/cetpgen/gen/ir"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/golden")

// load checks the spec directories and fails the test on any diagnostic.
func load(t testing.TB, dirs ...string) []*ir.Provider {
	t.Helper()
	ps, l, err := gen.Check(gen.OSSource, dirs)
	if err != nil || l.HasErrors() {
		t.Fatalf("check %v: %v %v", dirs, err, l)
	}
	return ps
}

// goldenCases are the spec directories under testdata/specs.
func goldenCases(t *testing.T) []string {
	t.Helper()
	dirs, err := filepath.Glob("testdata/specs/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no golden specs: %v", err)
	}
	return dirs
}

// generate renders one spec directory.
func generate(t *testing.T, dir string) []emit.File {
	t.Helper()
	files, err := golang.Generate(load(t, dir)[0])
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestGolden proves each spec under testdata/specs renders exactly the
// committed files under testdata/golden (go test -update rewrites them),
// and that every file carries the header.
func TestGolden(t *testing.T) {
	for _, dir := range goldenCases(t) {
		for _, f := range generate(t, dir) {
			path := filepath.Join("testdata/golden", filepath.FromSlash(f.Path))
			if !bytes.HasPrefix(f.Data, []byte("// "+emit.Marker+"\n// Source: ")) {
				t.Errorf("%s: missing header", f.Path)
			}
			if *update {
				writeFile(t, path, f.Data)
				continue
			}
			want, err := os.ReadFile(path)
			if err != nil || !bytes.Equal(want, f.Data) {
				t.Errorf("%s differs from %s (run go test -update): %v", f.Path, path, err)
			}
		}
	}
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestGoldenCompiles proves the golden packages build, vet and are
// gofmt-clean: they are copied into a directory inside the module (its
// leading underscore keeps it out of ./...) and built there. The torture
// package also runs testdata/torture_test.go.txt, round trips of its
// hardest types; the corpus package runs testdata/corpus_test.go.txt,
// the keyword corpus of testdata/corpus/instances.json through the
// runtime, the handler and the typed Client.
func TestGoldenCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go tool")
	}
	tmp, err := os.MkdirTemp(".", "_compile")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	var pkgs []string
	for _, dir := range goldenCases(t) {
		for _, f := range generate(t, dir) {
			writeFile(t, filepath.Join(tmp, filepath.FromSlash(f.Path)), f.Data)
		}
		pkgs = append(pkgs, "./"+filepath.ToSlash(filepath.Join(tmp, golang.Dir, filepath.Base(dir))))
	}
	for _, args := range [][]string{{"go", "build"}, {"go", "vet"}, {"gofmt", "-l"}, {"go", "test"}} {
		if args[1] == "vet" {
			copyFile(t, "testdata/torture_test.go.txt", filepath.Join(tmp, golang.Dir, "torture", "torture_test.go"))
			copyFile(t, "testdata/corpus_test.go.txt", filepath.Join(tmp, golang.Dir, "corpus", "corpus_test.go"))
		}
		cmd := exec.Command(args[0], append(args[1:], pkgPaths(args[0], pkgs)...)...)
		out, err := cmd.CombinedOutput()
		if err != nil || (args[0] == "gofmt" || args[1] != "test") && len(bytes.TrimSpace(out)) > 0 {
			t.Errorf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// copyFile copies a file.
func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, to, data)
}

// pkgPaths gives gofmt directories and the go tool package paths.
func pkgPaths(tool string, pkgs []string) []string {
	if tool != "gofmt" {
		return pkgs
	}
	var dirs []string
	for _, p := range pkgs {
		dirs = append(dirs, strings.TrimPrefix(p, "./"))
	}
	return dirs
}

// TestDeterministic proves identical input renders identical bytes, in
// any order: twice in a row, and from a copy of the spec whose files were
// written in reverse order.
func TestDeterministic(t *testing.T) {
	for _, dir := range goldenCases(t) {
		a, b := generate(t, dir), generate(t, dir)
		copyDir := filepath.Join(t.TempDir(), filepath.Base(dir))
		copyReversed(t, dir, copyDir)
		c := generate(t, copyDir)
		for i := range a {
			if !bytes.Equal(a[i].Data, b[i].Data) || a[i].Path != c[i].Path || !sameBody(a[i].Data, c[i].Data) {
				t.Errorf("%s: output differs between runs", a[i].Path)
			}
		}
	}
}

// sameBody compares files after the Source line, which names the copy.
func sameBody(a, b []byte) bool {
	cut := func(d []byte) []byte { _, rest, _ := bytes.Cut(d, []byte("provider.yaml\n")); return rest }
	return bytes.Equal(cut(a), cut(b))
}

// copyReversed copies dir to dst, creating files in reverse name order.
func copyReversed(t *testing.T, dir, dst string) {
	t.Helper()
	var files []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	for i := len(files) - 1; i >= 0; i-- {
		rel, _ := filepath.Rel(dir, files[i])
		data, err := os.ReadFile(files[i])
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dst, rel), data)
	}
}
