package gen_test

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cetpgen/cetpgen/gen"
	"github.com/cetpgen/cetpgen/gen/ir"
	"github.com/cetpgen/cetpgen/gen/source"
	"gopkg.in/yaml.v3"
)

// specDirs are the example specs every determinism test runs on.
func specDirs(t *testing.T) []string {
	t.Helper()
	dirs, err := gen.ExpandDirs([]string{"../specs"})
	if err != nil || len(dirs) < 3 {
		t.Fatalf("example specs: %v %v", dirs, err)
	}
	return dirs
}

// TestIRDeterministic checks that the IR and the revisions do not depend on
// the order of directories given, the order files were written, or the
// order of keys inside the YAML mappings.
func TestIRDeterministic(t *testing.T) {
	dirs := specDirs(t)
	want := dumpIR(t, dirs)
	for seed := range uint64(5) {
		rng := rand.New(rand.NewPCG(seed, 7))
		shuffled := copyShuffled(t, dirs, rng)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		if got := dumpIR(t, shuffled); got != want {
			t.Fatalf("seed %d: IR differs after shuffling at byte %d\n got: %.300s\nwant: %.300s", seed, firstDiff(got, want), got[firstDiff(got, want):], want[firstDiff(got, want):])
		}
	}
}

// dumpIR renders everything in the IR but positions and directory names.
func dumpIR(t *testing.T, dirs []string) string {
	t.Helper()
	ps, l, err := gen.Check(gen.OSSource, dirs)
	if err != nil || l.HasErrors() {
		t.Fatalf("check: %v %v", err, l)
	}
	var b strings.Builder
	for _, p := range ps {
		p2 := *p
		p2.Dir, p2.File, p2.Scopes, p2.Tools = "", "", nil, nil
		for _, sc := range p.Scopes {
			s2 := *sc
			s2.Pos = source.Pos{}
			p2.Scopes = append(p2.Scopes, &s2)
		}
		data, err := json.Marshal(struct {
			P     ir.Provider
			Tools []ir.Tool
		}{p2, derefTools(p.Tools)})
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
		b.WriteByte('\n')
	}
	return b.String()
}

func derefTools(ts []*ir.Tool) []ir.Tool {
	out := make([]ir.Tool, len(ts))
	for i, tool := range ts {
		out[i] = *tool
		out[i].File, out[i].Scopes = filepath.Base(tool.File), nil
		for _, sc := range tool.Scopes {
			out[i].Scopes = append(out[i].Scopes, &ir.Scope{Name: sc.Name})
		}
	}
	return out
}

// copyShuffled copies each spec directory into a temp dir, writing files in
// a random order and with every YAML mapping's keys shuffled.
func copyShuffled(t *testing.T, dirs []string, rng *rand.Rand) []string {
	t.Helper()
	root := t.TempDir()
	var out []string
	for _, dir := range dirs {
		dst := filepath.Join(root, filepath.Base(dir))
		var files []string
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				files = append(files, p)
			}
			return err
		})
		rng.Shuffle(len(files), func(i, j int) { files[i], files[j] = files[j], files[i] })
		for _, f := range files {
			rel, _ := filepath.Rel(dir, f)
			writeShuffledYAML(t, f, filepath.Join(dst, rel), rng)
		}
		out = append(out, dst)
	}
	return out
}

func writeShuffledYAML(t *testing.T, src, dst string, rng *rand.Rand) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	shuffleKeys(&doc, rng)
	out, err := yaml.Marshal(&doc)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

func shuffleKeys(n *yaml.Node, rng *rand.Rand) {
	if n.Kind == yaml.MappingNode {
		pairs := len(n.Content) / 2
		rng.Shuffle(pairs, func(i, j int) {
			n.Content[2*i], n.Content[2*j] = n.Content[2*j], n.Content[2*i]
			n.Content[2*i+1], n.Content[2*j+1] = n.Content[2*j+1], n.Content[2*i+1]
		})
	}
	for _, c := range n.Content {
		shuffleKeys(c, rng)
	}
}

func firstDiff(a, b string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return max(0, i-80)
		}
	}
	return min(len(a), len(b))
}

// TestOutputDeterministic checks that every target's output is byte for
// byte the same for the same specs, whatever the order of directories,
// files and mapping keys, and across runs.
func TestOutputDeterministic(t *testing.T) {
	dirs := specDirs(t)
	for i, d := range dirs {
		abs, err := filepath.Abs(d)
		if err != nil {
			t.Fatal(err)
		}
		dirs[i] = abs
	}
	want := planBytes(t, copyShuffled(t, dirs, rand.New(rand.NewPCG(0, 0))), false)
	for seed := range uint64(3) {
		rng := rand.New(rand.NewPCG(seed, 11))
		if got := planBytes(t, copyShuffled(t, dirs, rng), true); got != want {
			t.Fatalf("seed %d: generated output differs at byte %d:\n got: %.300s\nwant: %.300s",
				seed, firstDiff(got, want), got[firstDiff(got, want):], want[firstDiff(got, want):])
		}
	}
}

// planBytes renders every target for the spec directories, entered by
// their relative names from their common parent so that the paths written
// into headers are the same for every copy.
func planBytes(t *testing.T, dirs []string, reverse bool) string {
	t.Helper()
	t.Chdir(filepath.Dir(dirs[0]))
	rel := make([]string, len(dirs))
	for i, d := range dirs {
		rel[i] = filepath.Join("specs", filepath.Base(d))
		if err := os.MkdirAll("specs", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(filepath.Base(d), rel[i]); err != nil {
			t.Fatal(err)
		}
	}
	if reverse {
		slices.Reverse(rel)
	}
	ps, l, err := gen.Check(gen.OSSource, rel)
	if err != nil || l.HasErrors() {
		t.Fatalf("check: %v %v", err, l)
	}
	plan, err := gen.Plan(ps, nil, "out")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, f := range plan.Files {
		b.WriteString(f.Path + "\n" + string(f.Data) + "\n")
	}
	return b.String()
}
