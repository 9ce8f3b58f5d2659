package catalog

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cetpgen/cetpgen/examples/cobracli/app"
	"github.com/spf13/cobra"
)

// exampleDir copies the catalog directory of examples/cobracli into a
// temporary directory.
func exampleDir(t *testing.T) string {
	t.Helper()
	src, dst := filepath.Join("..", "..", "examples", "cobracli", "catalog"), t.TempDir()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		data, err := os.ReadFile(p)
		if err == nil {
			err = os.MkdirAll(filepath.Dir(filepath.Join(dst, rel)), 0o755)
		}
		if err == nil {
			err = os.WriteFile(filepath.Join(dst, rel), data, 0o644)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestLoadDirBuildsTheCommittedCatalog proves the sources LoadDir reads
// build the committed catalog, and that a changed source changes it.
func TestLoadDirBuildsTheCommittedCatalog(t *testing.T) {
	dir := exampleDir(t)
	committed, err := os.ReadFile(filepath.Join(dir, CatalogFile))
	if err != nil {
		t.Fatal(err)
	}
	if got := loadBuild(t, dir); !bytes.Equal(got, committed) {
		t.Fatal("the sources do not build the committed catalog")
	}
	edit(t, filepath.Join(dir, "selection", "notes.json"), `"Add tags to a note."`, `"Add tags."`)
	if got := loadBuild(t, dir); bytes.Equal(got, committed) {
		t.Fatal("a changed source must change the catalog")
	}
}

// loadBuild loads dir and returns the catalog it builds.
func loadBuild(t *testing.T, dir string) []byte {
	t.Helper()
	in, err := LoadDir(dir, app.GeneratorRoot)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Build(in)
	if err != nil {
		t.Fatal(err)
	}
	return res.Data
}

func edit(t *testing.T, path, old, new string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil || !bytes.Contains(data, []byte(old)) {
		t.Fatalf("edit %s: %v", path, err)
	}
	if err := os.WriteFile(path, bytes.Replace(data, []byte(old), []byte(new), 1), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoadDirIsStrict(t *testing.T) {
	cases := []struct{ file, old, new, want string }{
		{"metadata/notes.json", `"reviewed": true,`, `"reviewed": true, "risky": 1,`, "unknown field"},
		{"selection/notes.json", `"version": 1,`, `"version": 1, "extra": {},`, "unknown field"},
		{"schema_command_exclusions.json", `"reviewed": true,`, `"reviewed": true, "owner": "x",`, "unknown field"},
		{"schema_interfaces.json", "\n}\n", "\n}\n{}", "trailing data"},
		{"schema_command_registry.schema.json", `"version": {"const": 1}`, `"version": {"const": 2}`, "not compatible with cetpgen's registry schema: on a minimal registry"},
		{"schema_command_registry.json", `"cli_path": "note create"`, `"cli_path": "note create", "title": "x"`, "does not match"},
	}
	for _, c := range cases {
		dir := exampleDir(t)
		edit(t, filepath.Join(dir, c.file), c.old, c.new)
		if _, err := LoadDir(dir, app.GeneratorRoot); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.file, err, c.want)
		}
	}
}

// TestShuffledInputsGiveTheSameBytes reorders every ordered input: the
// catalog must not change.
func TestShuffledInputsGiveTheSameBytes(t *testing.T) {
	second := MetadataSource{Version: 1, Ref: "metadata/second.json", Source: SourceInfo{Name: "second", Reviewed: true},
		Tools: map[string]ToolMetadata{"aitable.base_delete": {Effect: "destructive", Reviewed: true}}}
	first := fixtureInput()
	first.Metadata = append(first.Metadata, second)
	a, err := Build(first)
	if err != nil {
		t.Fatal(err)
	}
	in := fixtureInput()
	in.Metadata = append([]MetadataSource{second}, in.Metadata...)
	slices.Reverse(in.Registry.Products)
	for i := range in.Registry.Products {
		slices.Reverse(in.Registry.Products[i].Tools)
	}
	slices.Reverse(in.Exclusions)
	in.Interfaces.Services = []string{"notify", "report", "calendar", "aitable"}
	root := in.Root
	in.Root = func() *cobra.Command {
		r := root()
		cmds := r.Commands()
		r.ResetCommands()
		slices.Reverse(cmds)
		r.AddCommand(cmds...)
		return r
	}
	b, err := Build(in)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Data, b.Data) || !bytes.Equal(a.Index, b.Index) {
		t.Fatal("reordered inputs changed the catalog")
	}
}
