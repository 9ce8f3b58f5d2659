package gen_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cetpgen/cetpgen/examples/cobracli/app"
	"github.com/cetpgen/cetpgen/gen"
	gencatalog "github.com/cetpgen/cetpgen/gen/catalog"
)

// TestWriteCatalog proves the catalog goes through gen/write like every
// target: check reports the committed catalog fresh; after a source
// changes, check fails with a diff of the stale file and writes nothing;
// writing then replaces both files, which JSON cannot mark as generated,
// and check is fresh again.
func TestWriteCatalog(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "examples", "cobracli", "catalog"))); err != nil {
		t.Fatal(err)
	}
	if _, err := gen.WriteCatalog(load(t, dir), dir, true); err != nil {
		t.Fatalf("the committed catalog is reported stale: %v", err)
	}
	sel := filepath.Join(dir, "selection", "notes.json")
	data, err := os.ReadFile(sel)
	if err != nil || !bytes.Contains(data, []byte(`"Add tags to a note."`)) {
		t.Fatalf("read %s: %v", sel, err)
	}
	if err := os.WriteFile(sel, bytes.Replace(data, []byte(`"Add tags to a note."`), []byte(`"Add tags."`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(dir, gencatalog.CatalogFile))
	_, err = gen.WriteCatalog(load(t, dir), dir, true)
	if err == nil || !strings.Contains(err.Error(), gencatalog.CatalogFile) || !strings.Contains(err.Error(), "+") {
		t.Fatalf("a changed source must make the catalog stale, with a diff: %v", err)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, gencatalog.CatalogFile)); !bytes.Equal(before, after) {
		t.Fatal("check wrote the catalog")
	}
	res, err := gen.WriteCatalog(load(t, dir), dir, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range gen.CatalogFiles(res) {
		if got, _ := os.ReadFile(filepath.Join(dir, f.Path)); !bytes.Equal(got, f.Data) {
			t.Errorf("%s was not written", f.Path)
		}
	}
	if _, err := gen.WriteCatalog(load(t, dir), dir, true); err != nil {
		t.Fatalf("the written catalog is reported stale: %v", err)
	}
}

// load reads the catalog sources of dir for the example CLI.
func load(t *testing.T, dir string) *gencatalog.Input {
	t.Helper()
	in, err := gencatalog.LoadDir(dir, app.GeneratorRoot)
	if err != nil {
		t.Fatal(err)
	}
	return in
}
