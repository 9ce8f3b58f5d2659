package validate

import (
	"testing"
	"testing/fstest"

	"github.com/cetpgen/cetpgen/gen/diag"
	"github.com/cetpgen/cetpgen/gen/spec"
)

// sameSchemaTool is a tool file whose input schema is the given flow
// mapping; the output schema is the same in every tool.
func sameSchemaTool(name, input string) []byte {
	return []byte("name: " + name + "\ntitle: T\ndescription: D\ninput_schema: " + input +
		"\noutput_schema: {type: object, properties: {n: {type: integer}}}\nscopes: [x.read]\n" +
		"annotations: {effect: read, risk: low, destructive: false, idempotent: true, open_world: false, confirmation: never, execution: sync}\n")
}

// TestEqualSchemasEachReportTheirOwnError checks that a schema that fails
// is reported in every tool that repeats it, at that tool's file, while
// repeated valid schemas (checked once) report nothing.
func TestEqualSchemasEachReportTheirOwnError(t *testing.T) {
	bad := "{type: object, properties: {a: {type: 5}}}"
	good := "{type: object, properties: {a: {type: string}}}"
	fsys := fstest.MapFS{
		"provider.yaml": {Data: []byte(fuzzProvider)},
		"tools/t1.yaml": {Data: sameSchemaTool("t1", bad)},
		"tools/t2.yaml": {Data: sameSchemaTool("t2", good)},
		"tools/t3.yaml": {Data: sameSchemaTool("t3", bad)},
		"tools/t4.yaml": {Data: sameSchemaTool("t4", good)},
	}
	set, l, err := spec.Load(fsys, "same")
	if err != nil || len(l) > 0 {
		t.Fatalf("load: %v %v", err, l)
	}
	_, vl, err := Validate(set)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]int{}
	for _, d := range vl {
		if d.Rule == "schema-invalid" {
			files[d.Pos.File]++
			if d.Pos.Line != 4 {
				t.Errorf("diagnostic not at the input schema's line: %v", d)
			}
		} else if d.Severity == diag.Error {
			t.Errorf("unexpected error: %v", d)
		}
	}
	if len(files) != 2 || files["same/tools/t1.yaml"] == 0 || files["same/tools/t3.yaml"] == 0 {
		t.Fatalf("schema-invalid by file = %v, want t1.yaml and t3.yaml; all: %v", files, vl)
	}
}
