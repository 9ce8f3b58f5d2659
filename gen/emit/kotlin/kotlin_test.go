package kotlin_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/cetpgen/cetpgen/gen"
	"github.com/cetpgen/cetpgen/gen/emit"
	"github.com/cetpgen/cetpgen/gen/emit/kotlin"
	"github.com/cetpgen/cetpgen/gen/ir"
	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/golden")

// repoRoot is the repository root, relative to this package.
const repoRoot = "../../.."

// goTorture is the torture spec of the Go emitter's tests.
const goTorture = repoRoot + "/gen/emit/golang/testdata/specs/torture"

// specDirs returns the example specs and this package's test specs.
func specDirs(t *testing.T) []string {
	t.Helper()
	var dirs []string
	for _, pattern := range []string{filepath.Join(repoRoot, "specs", "*"), filepath.Join("testdata", "specs", "*")} {
		found, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, found...)
	}
	sort.Strings(dirs)
	return dirs
}

// load builds the IR of the spec directories, failing on any error.
func load(t *testing.T, dirs []string) []*ir.Provider {
	t.Helper()
	ps, diags, err := gen.Check(gen.OSSource, dirs)
	if err != nil || diags.HasErrors() {
		t.Fatalf("check %v: %v %v", dirs, err, diags)
	}
	return ps
}

// generate renders one Provider's Kotlin, failing on error.
func generate(t *testing.T, p *ir.Provider) []emit.File {
	t.Helper()
	files, err := kotlin.Generate(p)
	if err != nil {
		t.Fatalf("generate %s: %v", p.Dir, err)
	}
	return files
}

// TestGolden renders every spec of testdata/specs and compares the files
// with testdata/golden/<case>.txtar; -update rewrites them.
func TestGolden(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join("testdata", "specs", "*"))
	if len(dirs) == 0 {
		t.Fatal("no golden specs")
	}
	for _, p := range load(t, dirs) {
		t.Run(p.Slug, func(t *testing.T) {
			got := archive(generate(t, p))
			golden := filepath.Join("testdata", "golden", p.Slug+".txtar")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the generated files; run go test ./gen/emit/kotlin -update and review the diff", golden)
			}
		})
	}
}

// archive packs files into a txtar archive, user-owned ones marked.
func archive(files []emit.File) []byte {
	a := &txtar.Archive{}
	for _, f := range files {
		name := f.Path
		if f.UserOwned {
			name += " (user-owned)"
		}
		a.Files = append(a.Files, txtar.File{Name: name, Data: f.Data})
	}
	return txtar.Format(a)
}

// TestGeneratedFiles checks the header, the paths and the user-owned
// skeleton of every Provider's output.
func TestGeneratedFiles(t *testing.T) {
	for _, p := range load(t, specDirs(t)) {
		files := generate(t, p)
		owned := 0
		for _, f := range files {
			if !strings.HasPrefix(f.Path, "kotlin/"+p.Slug+"/") {
				t.Errorf("%s: path outside kotlin/%s/", f.Path, p.Slug)
			}
			if f.UserOwned {
				owned++
				if emit.IsGenerated(f.Data) || !strings.Contains(string(f.Data), "yours to edit") {
					t.Errorf("%s: the skeleton must not carry the generated marker", f.Path)
				}
				continue
			}
			want := "// " + emit.Marker + "\n// Source: " + p.File + "\n"
			if !strings.HasPrefix(string(f.Data), want) {
				t.Errorf("%s: header is not %q", f.Path, want)
			}
		}
		if owned != 1 {
			t.Errorf("%s: %d user-owned files, want 1", p.Slug, owned)
		}
	}
}

// TestNamesFromTheIR checks that the Kotlin declarations are the IR's:
// every declared schema node is one top-level declaration under its
// KotlinName, every tool object and method is the tool's IR name, and the
// Provider classes are the IR's KotlinNames.
func TestNamesFromTheIR(t *testing.T) {
	ps := append(load(t, specDirs(t)), load(t, []string{goTorture, goCorpus})...)
	for _, p := range ps {
		all := map[string]string{}
		for _, f := range generate(t, p) {
			all[f.Path] = string(f.Data)
		}
		dir := "kotlin/" + p.Slug + "/"
		types := all[dir+p.Kotlin.Class+"Types.kt"]
		declared := map[string]int{}
		for _, m := range topLevel.FindAllStringSubmatch(types, -1) {
			declared[m[1]]++
		}
		for _, n := range p.Decls {
			if declared[n.KotlinName] != 1 {
				t.Errorf("%s: %s (%s) declared %d times", p.Slug, n.KotlinName, n.What, declared[n.KotlinName])
			}
		}
		for _, tool := range p.Tools {
			base, m := all[dir+p.Kotlin.Base+".kt"], tool.Names.KotlinMethod
			if declared[tool.Names.KotlinObject] != 1 || !strings.Contains(base, "fun "+m+"(") && !strings.Contains(base, "fun `"+m+"`(") {
				t.Errorf("%s: tool %s: object %s or method %s missing", p.Slug, tool.Name, tool.Names.KotlinObject, tool.Names.KotlinMethod)
			}
		}
		if len(declared) != len(p.Decls)+len(p.Tools) {
			t.Errorf("%s: %d top-level type declarations, the IR has %d nodes and %d tools", p.Slug, len(declared), len(p.Decls), len(p.Tools))
		}
		for _, name := range []string{p.Kotlin.Base, p.Kotlin.Schemas, p.Kotlin.Service, p.Kotlin.Class} {
			if _, ok := all[dir+name+".kt"]; !ok {
				t.Errorf("%s: no file %s.kt", p.Slug, name)
			}
		}
	}
}

// topLevel matches a top-level declaration of a generated Types.kt.
var topLevel = regexp.MustCompile(`(?m)^(?:data class|class|object|enum class|sealed class|typealias) (\S+?)[ (=<{]`)

// TestDeterministic renders every Provider twice and from a reversed spec
// order and expects identical bytes.
func TestDeterministic(t *testing.T) {
	dirs := specDirs(t)
	first := load(t, dirs)
	rev := append([]string(nil), dirs...)
	sort.Sort(sort.Reverse(sort.StringSlice(rev)))
	second := load(t, rev)
	for i := range first {
		a, b := archive(generate(t, first[i])), archive(generate(t, second[i]))
		if !bytes.Equal(a, b) {
			t.Errorf("%s: output differs between runs", first[i].Slug)
		}
	}
}

// BenchmarkGenerate renders the Kotlin of the three example specs.
func BenchmarkGenerate(b *testing.B) {
	dirs, _ := filepath.Glob(filepath.Join(repoRoot, "specs", "*"))
	ps, diags, err := gen.Check(gen.OSSource, dirs)
	if err != nil || diags.HasErrors() {
		b.Fatal(err, diags)
	}
	for b.Loop() {
		for _, p := range ps {
			if _, err := kotlin.Generate(p); err != nil {
				b.Fatal(err)
			}
		}
	}
}
