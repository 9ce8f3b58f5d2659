package kotlin_test

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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

// kotlinc locates the Kotlin compiler: $KOTLINC, else the copy that
// scripts/kotlinc.sh installs under .cache/kotlinc/.
func kotlinc(t *testing.T) string {
	t.Helper()
	if k := os.Getenv("KOTLINC"); k != "" {
		return k
	}
	var found []string
	all, _ := filepath.Glob(filepath.Join(repoRoot, ".cache", "kotlinc", "*", "package", "bin", "kotlinc"))
	for _, f := range all {
		if !strings.Contains(f, ".partial.") {
			found = append(found, f)
		}
	}
	if len(found) == 0 {
		t.Fatal("no Kotlin compiler: run scripts/kotlinc.sh (it installs kotlinc into .cache/kotlinc/) or set KOTLINC")
	}
	abs, err := filepath.Abs(found[len(found)-1])
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// TestKotlinCompilesAndRuns compiles the generated Kotlin of every example
// spec and test spec, with the SDK stand-ins of sdkstubs/ and the JVM
// harness, in one kotlinc run, then runs the harness with java: the
// round-trip cases of testdata/roundtrip.txt and the base-class checks.
func TestKotlinCompilesAndRuns(t *testing.T) {
	compiler := kotlinc(t)
	work := t.TempDir()
	src := filepath.Join(work, "src")
	for _, p := range load(t, specDirs(t)) {
		writeFiles(t, src, generate(t, p))
	}
	// The Go generator's torture spec (reserved words, colliding and
	// non-ASCII names, hostile texts, every union form) must compile too.
	for _, p := range load(t, []string{goTorture}) {
		writeFiles(t, filepath.Join(src, "gotorture"), generate(t, p))
	}
	writeFile(t, filepath.Join(src, "harness", "RoundTrips.kt"), roundTrips(t))
	sources := kotlinSources(t, src, filepath.Join(repoRoot, "sdkstubs"), filepath.Join("testdata", "harness"))
	classes := filepath.Join(work, "classes")
	// C1 only and the serial collector: kotlinc is a short-lived JVM, and on
	// this project's 2-core machines this cuts its CPU time about threefold.
	args := append([]string{"-nowarn", "-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC", "-d", classes}, sources...)
	if out, err := exec.Command(compiler, args...).CombinedOutput(); err != nil {
		t.Fatalf("kotlinc failed: %v\n%s", err, out)
	}
	stdlib := filepath.Join(filepath.Dir(filepath.Dir(compiler)), "lib", "kotlin-stdlib.jar")
	out, err := exec.Command("java", "-XX:TieredStopAtLevel=1", "-cp", classes+string(os.PathListSeparator)+stdlib, "harness.HarnessKt").CombinedOutput()
	t.Logf("harness:\n%s", out)
	if err != nil || !strings.Contains(string(out), " passed, 0 failed") {
		t.Fatalf("harness failed: %v\n%s", err, out)
	}
}

// writeFiles writes generated files below dir.
func writeFiles(t *testing.T, dir string, files []emit.File) {
	t.Helper()
	for _, f := range files {
		writeFile(t, filepath.Join(dir, filepath.FromSlash(f.Path)), f.Data)
	}
}

// writeFile writes data to path, creating directories.
func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// kotlinSources lists the .kt files below the roots.
func kotlinSources(t *testing.T, roots ...string) []string {
	t.Helper()
	var out []string
	for _, root := range roots {
		err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".kt") {
				out = append(out, path)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// roundTrips turns testdata/roundtrip.txt into the harness's roundTrips().
func roundTrips(t *testing.T) []byte {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "roundtrip.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b strings.Builder
	b.WriteString("package harness\n\nfun roundTrips() {\n")
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		b.WriteString(roundTripCall(t, n, line))
	}
	b.WriteString("}\n")
	return []byte(b.String())
}

// roundTripCall is one harness call for a line of roundtrip.txt.
func roundTripCall(t *testing.T, n int, line string) string {
	t.Helper()
	parts := strings.SplitN(line, " ", 3)
	if len(parts) != 3 || (parts[0] != "ok" && parts[0] != "bad") {
		t.Fatalf("roundtrip.txt:%d: want \"ok|bad Type JSON\"", n)
	}
	fn := map[string]string{"ok": "roundTrip", "bad": "rejects"}[parts[0]]
	name := fmt.Sprintf("roundtrip.txt:%d %s", n, parts[1])
	dot := strings.LastIndex(parts[1], ".")
	obj, root := parts[1][:dot], parts[1][dot+1:]
	return fmt.Sprintf("    %s(%s, %s) { %s.encode%s(%s.decode%s(it)) }\n", fn, kotlin.StringLiteral(name), kotlin.StringLiteral(parts[2]), obj, root, obj, root)
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
