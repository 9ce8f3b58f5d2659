package importer

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cetpgen/cetpgen/gen/diag"
)

// manyTools is an MCP result of n tools whose input schemas have props
// properties each.
func manyTools(n, props int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"tools": [`)
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"name": "tool_%d", "description": "Tool %d.", "annotations": {"readOnlyHint": true}, "inputSchema": {"type": "object", "additionalProperties": false, "properties": {`, i, i)
		for p := range props {
			if p > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, `"p%d": {"type": "string", "description": "Property %d of a generated schema, long enough to weigh."}`, p, p)
		}
		b.WriteString(`}}}`)
	}
	b.WriteString("]}\n")
	return b.Bytes()
}

// TestMCPFiveMegabytes imports a 5 MB tools/list result: every tool is
// carried over, with no error.
func TestMCPFiveMegabytes(t *testing.T) {
	data := manyTools(1000, 50)
	if len(data) < 5<<20 {
		t.Fatalf("the input is %d bytes, want 5 MB", len(data))
	}
	res, err := MCP(data, Options{Dir: "big", Source: "big.json"})
	if err != nil || res.Diags.HasErrors() {
		t.Fatalf("%v %v", err, firstErrors(res.Diags))
	}
	if res.Tools != 1000 || len(res.Files) != 1001 {
		t.Fatalf("%d tools, %d files", res.Tools, len(res.Files))
	}
	// Each tool file was parsed back and compared with the input by the
	// importer itself; a failure would be an import-render error above.
}

// BenchmarkMCPFiveMegabytes measures the import of the 5 MB input.
func BenchmarkMCPFiveMegabytes(b *testing.B) {
	data := manyTools(1000, 50)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := MCP(data, Options{Dir: "big", Source: "big.json"}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestMCPHostileInputs checks that each input is refused with one clear
// error at its place in the input, and that nothing is imported.
func TestMCPHostileInputs(t *testing.T) {
	oversize := manyTools(1, 12000) // one tool over the 1 MiB limit of a spec file
	cases := []struct {
		name  string
		data  []byte
		where string // "line:col"
		rule  string
		text  string
	}{
		{"invalid UTF-8", []byte("{\"tools\": [{\"name\": \"a\xff\"}]}"), "1:23", "import-json", "invalid UTF-8"},
		{"trailing data", []byte(`{"tools": []} {"more": 1}`), "1:15", "import-json", "data after the JSON value"},
		{"truncated", []byte(`{"tools": [{"name": "a"`), "1:24", "import-json", "ends before"},
		{"deep nesting", []byte(`{"tools": [{"name": "a", "inputSchema": ` + strings.Repeat("[", 200) + strings.Repeat("]", 200) + `}]}`), "1:", "import-json", "nest deeper"},
		{"not a list", []byte(`"tools"`), "1:1", "import-shape", "expected an MCP tools/list result"},
		{"empty list", []byte(`{"tools": []}`), "1:11", "import-shape", "empty"},
		{"no name", []byte(`{"tools": [{"inputSchema": {"type": "object"}}]}`), "1:12", "import-shape", "has no name"},
		{"no input schema", []byte(`{"tools": [{"name": "a"}]}`), "1:12", "import-schema", "has no inputSchema"},
		{"tool too large", oversize, "1:12", "import-too-large", "over the 1048576-byte limit"},
		{"items next to prefixItems", []byte(`{"tools": [{"name": "a", "inputSchema": {"type": "object", "properties": {"x": {"items": [{}], "prefixItems": [{}]}}}}]}`), "1:90", "import-schema-draft", "has no 2020-12 form"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := MCP(c.data, Options{Dir: "x", Source: "in.json"})
			if err != nil {
				t.Fatal(err)
			}
			errs := firstErrors(res.Diags)
			if len(errs) != 1 || len(res.Files) != 0 {
				t.Fatalf("want one error and no files, got %d files and %v", len(res.Files), errs)
			}
			d := errs[0]
			at := fmt.Sprintf("%d:%d", d.Pos.Line, d.Pos.Col)
			if !strings.HasPrefix(at, c.where) || d.Rule != c.rule || !strings.Contains(d.Message, c.text) || d.Pos.File != "in.json" {
				t.Errorf("got %v, want %s at %s with %q", d, c.rule, c.where, c.text)
			}
		})
	}
}

// TestImportedSpecsValidate writes every golden import that succeeded
// and validates it: the imported spec has no error, only warnings.
func TestImportedSpecsValidate(t *testing.T) {
	inputs, _ := filepath.Glob("testdata/mcp/*.json")
	more, _ := filepath.Glob("testdata/openapi/*")
	for _, in := range append(inputs, more...) {
		data, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		run := MCP
		if strings.Contains(in, "openapi") {
			run = OpenAPI
		}
		dir := filepath.Join(t.TempDir(), "spec")
		res, err := run(data, Options{Dir: dir, Source: in})
		if err != nil || res.Diags.HasErrors() {
			continue // refused inputs are the golden tests' business
		}
		writeFiles(t, dir, res.Files)
		if l := validateDir(t, dir); l.HasErrors() {
			t.Errorf("%s imports into an invalid spec:\n%v", in, firstErrors(l))
		}
	}
}

func firstErrors(l diag.List) diag.List {
	var out diag.List
	for _, d := range l {
		if d.Severity == diag.Error {
			out = append(out, d)
		}
	}
	return out
}
