package main

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/cetpgen/cetpgen/examples/cobracli/app"
	cetpgen "github.com/cetpgen/cetpgen/gen"
	gen "github.com/cetpgen/cetpgen/gen/catalog"
	"github.com/cetpgen/cetpgen/runtime/catalog"
)

// TestCatalogGates regenerates the catalog through every gate and fails if
// the committed one (what `go generate` wrote) differs.
func TestCatalogGates(t *testing.T) {
	if !bytes.Equal(gen.RegistrySchema("notes"), must(os.ReadFile("catalog/"+gen.RegistrySchemaFile))) {
		t.Fatal("catalog/schema_command_registry.schema.json is stale")
	}
	in, err := gen.LoadDir(app.CatalogDir, app.GeneratorRoot)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cetpgen.WriteCatalog(in, app.CatalogDir, true); err != nil {
		t.Fatalf("%v (run go generate ./examples/cobracli)", err)
	}
	if _, _, err := catalog.Decode(catalogData); err != nil {
		t.Fatalf("full strict decode and source_hash check of the embedded catalog: %v", err)
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// schema runs `notes schema args...` on the embedded catalog.
func schema(t *testing.T, args ...string) map[string]any {
	t.Helper()
	root := app.NewRoot(catalog.Lazy(catalogData, catalogIndex))
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetArgs(append([]string{"schema"}, args...))
	if err := root.Execute(); err != nil {
		t.Fatalf("schema %v: %v", args, err)
	}
	var v map[string]any
	if err := json.Unmarshal(out.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestSchemaQueries(t *testing.T) {
	if v := schema(t); v["level"] != "products" || v["tool_count"] != float64(5) {
		t.Errorf("overview: %v", v)
	}
	del := schema(t, "note delete")
	if del["effect"] != "destructive" || del["confirmation"] != "user_required" || del["interface_mode"] != "mcp" {
		t.Errorf("note delete safety from the CETP annotations: %v %v %v", del["effect"], del["confirmation"], del["interface_mode"])
	}
	alias := schema(t, "note ls")
	if alias["is_alias"] != true || alias["cli_path"] != "note ls" || alias["primary_cli_path"] != "note list" {
		t.Errorf("alias view: %v", alias)
	}
	if v := schema(t, "tag add"); v["interface_ref"] != nil || v["interface_mode"] != "composite" {
		t.Errorf("tag add: %v", v)
	}
}
