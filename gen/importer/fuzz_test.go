package importer

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cetpgen/cetpgen/gen/spec"
)

// FuzzMCP feeds arbitrary bytes to the MCP importer: it never panics,
// refuses with at least one positioned error or returns files that load
// as spec files, each tool file named after a legal, unique tool name.
// Seeds: testdata/mcp and testdata/fuzz/FuzzMCP.
func FuzzMCP(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/mcp/*.json")
	for _, s := range seeds {
		data, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := MCP(data, Options{Dir: "fuzz", Source: "in.json"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Diags.HasErrors() {
			if len(res.Files) != 0 {
				t.Fatal("files returned with errors")
			}
			for _, d := range res.Diags {
				if d.Pos.File != "in.json" && d.Severity == 0 {
					t.Fatalf("error without an input position: %v", d)
				}
			}
			return
		}
		seen := map[string]bool{}
		for _, f := range res.Files {
			doc, l := spec.Parse(f.Path, f.Path, f.Data)
			if doc == nil || l.HasErrors() {
				t.Fatalf("%s does not load: %v\n%s", f.Path, l, f.Data)
			}
			if f.Path == spec.ProviderFile {
				continue
			}
			tool, err := spec.DecodeTool(doc)
			if err != nil || !toolNameRE.MatchString(tool.Name) || f.Path != "tools/"+tool.Name+".yaml" || seen[tool.Name] {
				t.Fatalf("%s: bad or repeated name %q (%v)", f.Path, tool.Name, err)
			}
			seen[tool.Name] = true
		}
	})
}

// FuzzOpenAPI does the same for the OpenAPI importer, JSON and YAML.
func FuzzOpenAPI(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/openapi/*")
	for _, s := range seeds {
		data, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := OpenAPI(data, Options{Dir: "fuzz", Source: "in.yaml"})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range res.Files {
			if doc, l := spec.Parse(f.Path, f.Path, f.Data); doc == nil || l.HasErrors() {
				t.Fatalf("%s does not load: %v", f.Path, l)
			}
		}
	})
}
