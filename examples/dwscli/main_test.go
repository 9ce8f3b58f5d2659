package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cetpgen/cetpgen/examples/dwscli/app"
	cetpgen "github.com/cetpgen/cetpgen/gen"
	gen "github.com/cetpgen/cetpgen/gen/catalog"
	"github.com/cetpgen/cetpgen/runtime/catalog"
	"github.com/spf13/cobra"
)

// dwsRegistryHash is dws's own registry hash at e69a1084 (its overview's
// surface_hash, gen/catalog/testdata/dws/v0718_schema_overview.json).
const dwsRegistryHash = "sha256:7ef588f38052f0104e027c8daff5fefd68698781f2c87715461183d4058288ed"

func generatorRoot() *cobra.Command {
	root, err := app.NewRoot(inputs, func() (*catalog.Catalog, error) { return nil, errors.New("generating") })
	if err != nil {
		panic(err)
	}
	return root
}

// TestCatalogFromRealInputs builds the catalog from dws's reviewed inputs,
// unchanged (byte-equal to the copies in gen/catalog/testdata), against
// the reconstructed tree: every gate passes, two generations are byte
// identical, the committed catalog is current, and the registry hash is
// dws's own.
func TestCatalogFromRealInputs(t *testing.T) {
	for _, name := range []string{gen.RegistryFile, gen.RegistrySchemaFile, gen.ExclusionsFile, gen.BindingsFile} {
		ours, err1 := os.ReadFile(filepath.Join("catalog", name))
		ref, err2 := os.ReadFile(filepath.Join("..", "..", "gen", "catalog", "testdata", "dws-inputs", name))
		if err1 != nil || err2 != nil || !bytes.Equal(ours, ref) {
			t.Fatalf("catalog/%s is not dws's file unchanged (%v, %v)", name, err1, err2)
		}
	}
	in, err := gen.LoadDir("catalog", generatorRoot)
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Exclusions) != 344 || in.Bindings.Baseline == nil || len(in.Bindings.Removals) != 8 || len(in.Bindings.Corrections) != 2 {
		t.Fatalf("inputs lost something: %d exclusions, bindings %+v", len(in.Exclusions), in.Bindings.Baseline)
	}
	if _, err := cetpgen.WriteCatalog(in, "catalog", true); err != nil {
		t.Fatalf("%v (run go generate ./examples/dwscli)", err)
	}
	reg, _, err := catalog.Decode(catalogData)
	if err != nil {
		t.Fatalf("full strict decode and source_hash check of the embedded catalog: %v", err)
	}
	if reg.ToolCount() != 572 || len(reg.Products) != 22 {
		t.Errorf("catalog has %d products, %d tools; dws has 22 and 572", len(reg.Products), reg.ToolCount())
	}
	eff, err := gen.NewEffectiveRegistry(in.Registry, nil)
	if err != nil || eff.Hash() != dwsRegistryHash {
		t.Errorf("registry hash %s (%v), dws's is %s", eff.Hash(), err, dwsRegistryHash)
	}
}

// runDWS runs `dws args…` on the embedded catalog.
func runDWS(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	root, err := app.NewRoot(inputs, catalog.Lazy(catalogData, catalogIndex))
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errb)
	root.SetArgs(args)
	err = root.Execute()
	return out.String(), errb.String(), err
}

func leaf(t *testing.T, path string) map[string]any {
	t.Helper()
	out, errs, err := runDWS(t, "schema", path)
	if err != nil {
		t.Fatalf("schema %q: %v %s", path, err, errs)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// The tree has dws's shape, and the catalog shows it.
func TestTreeShape(t *testing.T) {
	root := generatorRoot()
	root.InitDefaultHelpCmd()
	if c, _, err := root.Find([]string{"help"}); err != nil || c.Name() != "help" {
		t.Error("no Cobra help command: the binder must meet it and leave it out")
	}
	// A Cobra alias and a compatibility leaf.
	if v := leaf(t, "aitable record list"); v["is_alias"] != true || v["primary_cli_path"] != "aitable record query" {
		t.Errorf("cobra alias view: %v %v", v["is_alias"], v["primary_cli_path"])
	}
	if c, _, _ := root.Find([]string{"report", "list"}); c == nil || c.Name() != "list" || c.Parent().Name() != "report" {
		t.Error("report list is not a compatibility leaf of its own")
	}
	// Inherited flags are parameters, with the declaring group as source.
	inherited := 0
	for _, p := range catalogTools(t) {
		for _, param := range p.Parameters {
			if strings.HasPrefix(param.Provenance["type"].SourceRef, "persistent flag of ") {
				inherited++
			}
		}
	}
	if inherited == 0 {
		t.Error("no tool has an inherited parameter")
	}
	// Root-name paths, --cli-path by canonical, and a root persistent flag
	// (--format) is not a parameter.
	a, b := leaf(t, "dws report list"), leaf(t, "report list")
	if a["cli_path"] != "report list" || a["is_alias"] != true || len(a) != len(b) {
		t.Errorf("root-name alias query: %v", a["cli_path"])
	}
	if v := leaf(t, "report.get_received_report_list"); v["cli_path"] != "report inbox list" {
		t.Errorf("canonical query: %v", v["cli_path"])
	}
	if params, _ := leaf(t, "report inbox list")["parameters"].(map[string]any); params["format"] != nil || params["start"] == nil {
		t.Errorf("report inbox list parameters: %v", params)
	}
}

func catalogTools(t *testing.T) []*catalog.ToolSpec {
	reg, _, err := catalog.Decode(catalogData)
	if err != nil {
		t.Fatal(err)
	}
	return reg.Tools()
}

// Excluded and unknown paths fail as dws's do: the JSON error on stderr,
// exit status 3.
func TestQueryErrors(t *testing.T) {
	for _, path := range []string{"auth login", "calendar nope", "completion"} {
		out, errs, err := runDWS(t, "schema", path)
		var qe *catalog.QueryError
		if !errors.As(err, &qe) || qe.ExitCode() != 3 || out != "" || !strings.Contains(errs, `unknown runtime schema path \"`+path+`\"`) {
			t.Errorf("schema %q: %v, stdout %q, stderr %q", path, err, out, errs)
		}
	}
}
