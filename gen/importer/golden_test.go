package importer

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cetpgen/cetpgen/gen/diag"
	"github.com/rogpeppe/go-internal/txtar"
)

// TestGoldenMCP imports every testdata/mcp/*.json and compares the
// diagnostics and files with testdata/golden/mcp/<name>.txtar.
func TestGoldenMCP(t *testing.T) { runGolden(t, "mcp", "*.json", MCP) }

// TestGoldenOpenAPI does the same for testdata/openapi.
func TestGoldenOpenAPI(t *testing.T) { runGolden(t, "openapi", "*.*", OpenAPI) }

func runGolden(t *testing.T, kind, glob string, run func([]byte, Options) (*Result, error)) {
	inputs, err := filepath.Glob(filepath.Join("testdata", kind, glob))
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no inputs in testdata/%s (%v)", kind, err)
	}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), filepath.Ext(in))
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			res, err := run(data, Options{Dir: "spec", Source: filepath.ToSlash(in)})
			if err != nil {
				t.Fatal(err)
			}
			again, _ := run(data, Options{Dir: "spec", Source: filepath.ToSlash(in)})
			got := goldenArchive(res)
			if !bytes.Equal(got, goldenArchive(again)) {
				t.Fatal("two imports of the same input differ")
			}
			checkGolden(t, filepath.Join("testdata", "golden", kind, name+".txtar"), got)
		})
	}
}

// goldenArchive is a result as a txtar: the sorted diagnostics, then
// every file.
func goldenArchive(r *Result) []byte {
	var b bytes.Buffer
	if err := diag.Write(&b, r.Diags, "text"); err != nil {
		panic(err)
	}
	a := &txtar.Archive{Files: []txtar.File{{Name: "diagnostics", Data: b.Bytes()}}}
	for _, f := range r.Files {
		a.Files = append(a.Files, txtar.File{Name: f.Path, Data: f.Data})
	}
	return txtar.Format(a)
}

func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v; go test ./gen/importer -update", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (go test ./gen/importer -update, then review the diff)\n got:\n%s", path, got)
	}
}
