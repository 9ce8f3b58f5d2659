package gen_test

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/cetpgen/cetpgen/"

// stageRank orders cetpgen's packages: a package may import only packages
// of a lower rank (DESIGN.md §2: load -> validate -> IR -> emit -> write,
// gen.Run the one place that knows the order, the CLI on top).
var stageRank = []struct {
	prefix string // a package and those below it; with a trailing "/", only those below
	rank   int
}{
	{"gen/source", 0}, {"schema", 0}, {"templates", 0}, {"gen/internal/synth", 0}, {"gen/internal/par", 0}, {"gen/internal/schemaref", 0},
	{"gen/internal/synth/synthspec", 1},
	{"gen/diag", 1},
	{"gen/spec", 2},
	{"gen/validate", 3},
	{"gen/ir", 4},
	{"gen/emit", 5}, {"gen/catalog", 5},
	{"gen/emit/", 6}, {"gen/diff", 6},
	{"gen/write", 7},
	{"gen", 8},
	{"gen/cli", 9},
	{"cmd", 10},
}

func rankOf(pkg string) (int, bool) {
	rel := strings.TrimPrefix(pkg, module)
	best, bestLen := -1, -1
	for _, s := range stageRank {
		match := rel == s.prefix || strings.HasPrefix(rel, s.prefix+"/")
		if strings.HasSuffix(s.prefix, "/") {
			match = strings.HasPrefix(rel, s.prefix)
		}
		if match && len(s.prefix) > bestLen {
			best, bestLen = s.rank, len(s.prefix)
		}
	}
	return best, best >= 0
}

// TestImportDirection keeps the stage boundaries: imports flow one way,
// emitters never read YAML or wire structs, the runtime never imports gen.
func TestImportDirection(t *testing.T) {
	for pkg, imports := range goList(t, "-f", "{{.ImportPath}} {{join .Imports \" \"}}", module+"gen/...", module+"cmd/...") {
		from, ok := rankOf(pkg)
		if !ok {
			t.Errorf("package %s has no stage rank; add it to stageRank", pkg)
			continue
		}
		for _, imp := range imports {
			checkImport(t, pkg, from, imp)
		}
	}
}

func checkImport(t *testing.T, pkg string, from int, imp string) {
	t.Helper()
	emitter := strings.HasPrefix(pkg, module+"gen/emit")
	if emitter && (imp == "gopkg.in/yaml.v3" || imp == module+"gen/spec" || imp == module+"gen/validate") {
		t.Errorf("%s imports %s: emitters read only the IR", pkg, imp)
	}
	if !strings.HasPrefix(imp, module) || strings.HasPrefix(imp, module+"runtime") {
		return
	}
	if to, ok := rankOf(imp); ok && to >= from {
		t.Errorf("%s imports %s: imports must flow from later stages to earlier ones", pkg, imp)
	}
}

// TestRuntimeNeverImportsGen keeps the runtime usable without the generator.
func TestRuntimeNeverImportsGen(t *testing.T) {
	for pkg, deps := range goList(t, "-deps=false", "-f", "{{.ImportPath}} {{join .Deps \" \"}}", module+"runtime/...") {
		for _, d := range deps {
			if strings.HasPrefix(d, module+"gen") {
				t.Errorf("%s depends on %s: the runtime must never import gen/", pkg, d)
			}
		}
	}
}

// goList runs go list and returns, per package, the words after its path.
func goList(t *testing.T, args ...string) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list"}, args...)...).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	m := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		if len(fields) > 0 {
			m[fields[0]] = fields[1:]
		}
	}
	if len(m) == 0 {
		t.Fatal("go list found no packages")
	}
	return m
}
