package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cetpgen/cetpgen/gen"
	gencatalog "github.com/cetpgen/cetpgen/gen/catalog"
	rtcatalog "github.com/cetpgen/cetpgen/runtime/catalog"
)

// TestSchemaCatalog regenerates cetpgen's catalog from the reviewed sources
// and the live command tree and fails if the committed one differs; with
// -update it rewrites it (and the registry's JSON Schema).
func TestSchemaCatalog(t *testing.T) {
	dir := "catalog"
	if *update {
		schema := filepath.Join(dir, gencatalog.RegistrySchemaFile)
		if err := os.WriteFile(schema, gencatalog.RegistrySchema("cetpgen"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	in, err := gencatalog.LoadDir(dir, newRoot)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if _, err := gen.WriteCatalog(in, dir, false); err != nil {
			t.Fatal(err)
		}
		return
	}
	if _, err := gen.WriteCatalog(in, dir, true); err != nil {
		t.Fatalf("%v (go test ./gen/cli -run TestSchemaCatalog -update)", err)
	}
	if !bytes.Equal(schemaCatalog, mustRead(t, filepath.Join(dir, gencatalog.CatalogFile))) {
		t.Fatal("the embedded catalog is not the file on disk")
	}
	if _, _, err := rtcatalog.Decode(schemaCatalog); err != nil {
		t.Fatalf("full strict decode and source_hash check of the embedded catalog: %v", err)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// runSchemaCLI runs cetpgen in-process and returns its exit code and stdout.
func runSchemaCLI(t *testing.T, args ...string) (int, []byte) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(args, strings.NewReader(""), &out, &errb)
	return code, out.Bytes()
}

func TestSchemaCommandQueries(t *testing.T) {
	cases := []struct {
		args  []string
		level string
	}{
		{[]string{"schema"}, "products"},
		{[]string{"schema", "list"}, "products"},
		{[]string{"schema", "cetpgen"}, "product"},
		{[]string{"schema", "--all"}, "catalog"},
	}
	for _, c := range cases {
		code, out := runSchemaCLI(t, c.args...)
		var v map[string]any
		if code != ExitOK || json.Unmarshal(out, &v) != nil || v["level"] != c.level {
			t.Errorf("%v: exit %d, level %v", c.args, code, v["level"])
		}
	}
	for _, args := range [][]string{{"schema", "validate"}, {"schema", "cetpgen.validate_specs"}, {"schema", "--cli-path", "validate"}, {"schema", "validate", "--compact"}} {
		code, out := runSchemaCLI(t, args...)
		var v map[string]any
		if code != ExitOK || json.Unmarshal(out, &v) != nil || v["canonical_path"] != "cetpgen.validate_specs" {
			t.Errorf("%v: exit %d: %s", args, code, out)
		}
	}
}

// runSchemaCLIErr runs cetpgen in-process and returns its exit code and
// stderr, where the schema command prints its JSON errors (as dws does).
func runSchemaCLIErr(t *testing.T, args ...string) (int, []byte) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(args, strings.NewReader(""), &out, &errb)
	return code, errb.Bytes()
}

func TestSchemaCommandErrors(t *testing.T) {
	for path, want := range map[string]string{"schema": `unknown runtime schema path \"schema\"`, "nope": `unknown runtime schema path \"nope\"`} {
		code, out := runSchemaCLIErr(t, "schema", path)
		if code != ExitUsage || !strings.Contains(string(out), want) || !strings.Contains(string(out), `"category": "validation"`) {
			t.Errorf("schema %s: exit %d, %s", path, code, out)
		}
	}
	if code, out := runSchemaCLIErr(t, "schema", "--all", "validate"); code != ExitUsage || !strings.Contains(string(out), "--all cannot be combined") {
		t.Errorf("--all with a path: exit %d, %s", code, out)
	}
}
