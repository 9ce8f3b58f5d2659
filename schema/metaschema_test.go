package schema_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cetpgen/cetpgen/schema"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"
)

// specFile is one spec file converted to JSON, with the meta-schema it
// must satisfy ("provider" or "tool").
type specFile struct {
	File  string `json:"file"`
	Kind  string `json:"kind"`
	Value any    `json:"value"`
}

// repoRoot is the repository root, one level above this package.
const repoRoot = ".."

// exampleSpecs returns every provider.yaml and tool file of the spec
// directories in the repository: the example specs under specs/ and the
// torture and corpus specs of the generators' tests. Generated output,
// caches and git's own directory are left out.
func exampleSpecs(t *testing.T) []specFile {
	t.Helper()
	var out []specFile
	err := filepath.WalkDir(repoRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && slices.Contains([]string{".git", ".cache", "out", "node_modules"}, d.Name()) {
			return filepath.SkipDir
		}
		if d.IsDir() || d.Name() != "provider.yaml" {
			return nil
		}
		out = append(out, readSpec(t, p, "provider"))
		tools, _ := filepath.Glob(filepath.Join(filepath.Dir(p), "tools", "*.yaml"))
		for _, tf := range tools {
			out = append(out, readSpec(t, tf, "tool"))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// readSpec decodes a YAML spec file into JSON values.
func readSpec(t *testing.T, path, kind string) specFile {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return specFile{File: filepath.ToSlash(path), Kind: kind, Value: yamlToJSON(t, path, data)}
}

// yamlToJSON decodes YAML and re-reads it as jsonschema/v6's JSON values
// (json.Number for numbers).
func yamlToJSON(t *testing.T, name string, data []byte) any {
	t.Helper()
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	j, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	out, err := jsonschema.UnmarshalJSON(bytes.NewReader(j))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return out
}

// strictCompiler compiles the three meta-schemas as JSON Schema 2020-12
// with format assertions on, nothing loaded from outside.
func strictCompiler(t *testing.T) map[string]*jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseLoader(noLoader{})
	for url, data := range map[string][]byte{
		schema.JSONSchemaFlatURL: schema.JSONSchemaFlat, schema.ProviderURL: schema.Provider, schema.ToolURL: schema.Tool,
	} {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", url, err)
		}
		if err := c.AddResource(url, doc); err != nil {
			t.Fatalf("%s: %v", url, err)
		}
	}
	out := map[string]*jsonschema.Schema{}
	for kind, url := range map[string]string{"provider": schema.ProviderURL, "tool": schema.ToolURL} {
		s, err := c.Compile(url)
		if err != nil {
			t.Fatalf("compile %s: %v", url, err)
		}
		out[kind] = s
	}
	return out
}

// noLoader refuses every URL: the meta-schemas refer only to each other.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) { return nil, errors.New("no loading: " + url) }

// rejected are tool files that only the meta-schema needs to reject, each
// with the instance location its error must name.
var rejected = []struct {
	name, yaml, at string
}{
	{"input-array", "input_schema: {type: array}\noutput_schema: {type: object}\n", "/input_schema/type"},
	{"input-typo", "input_schema: {type: object, properties: {q: {type: strng}}}\noutput_schema: {type: object}\n", "/input_schema/properties/q/type"},
	{"output-typo", "input_schema: {type: object}\noutput_schema: {type: strng}\n", "/output_schema/type"},
	{"input-untyped", "input_schema: {properties: {q: {type: string}}}\noutput_schema: true\n", "/input_schema"},
}

// rejectedTool is a tool file that is valid but for its schemas.
func rejectedTool(t *testing.T, name, schemas string) specFile {
	t.Helper()
	text := "name: bad\ntitle: Bad\ndescription: A tool with a bad schema.\n" + schemas +
		"scopes: []\nannotations: {effect: read, risk: low, destructive: false, idempotent: true, open_world: false, confirmation: never, execution: sync}\n"
	return specFile{File: "rejected/" + name + ".yaml", Kind: "tool", Value: yamlToJSON(t, name, []byte(text))}
}

// TestExampleSpecsMatchMetaSchemas validates every example and torture
// spec of the repository against schema/provider.schema.json and
// schema/tool.schema.json with jsonschema/v6 in strict 2020-12 mode
// (format assertions on), and checks that a wrong input or output schema
// is rejected by the meta-schema alone.
func TestExampleSpecsMatchMetaSchemas(t *testing.T) {
	metas := strictCompiler(t)
	specs := exampleSpecs(t)
	counts := map[string]int{}
	for _, f := range specs {
		counts[f.Kind]++
		if err := metas[f.Kind].Validate(f.Value); err != nil {
			t.Errorf("%s does not match the %s meta-schema: %v", f.File, f.Kind, err)
		}
	}
	if counts["provider"] < 10 || counts["tool"] < 50 {
		t.Fatalf("found %d provider.yaml and %d tool files; the walk missed the example specs", counts["provider"], counts["tool"])
	}
	for _, r := range rejected {
		err := metas["tool"].Validate(rejectedTool(t, r.name, r.yaml).Value)
		var ve *jsonschema.ValidationError
		if !errors.As(err, &ve) {
			t.Errorf("%s: the tool meta-schema accepts it (%v)", r.name, err)
			continue
		}
		if !slices.Contains(leafLocations(ve), r.at) {
			t.Errorf("%s: no error at %s: %v", r.name, r.at, ve)
		}
	}
}

// leafLocations returns the instance locations of a validation error's
// innermost causes, as JSON pointers.
func leafLocations(ve *jsonschema.ValidationError) []string {
	if len(ve.Causes) == 0 {
		return []string{"/" + strings.Join(ve.InstanceLocation, "/")}
	}
	var out []string
	for _, c := range ve.Causes {
		out = append(out, leafLocations(c)...)
	}
	return out
}

// ajvReport is what scripts/ajv-check.js prints.
type ajvReport struct {
	Warnings []string `json:"warnings"`
	Results  []struct {
		File   string   `json:"file"`
		Valid  bool     `json:"valid"`
		Errors []string `json:"errors"`
	} `json:"results"`
}

// TestMetaSchemasWithAjv does the same with ajv, a second implementation,
// in its default strict mode (scripts/ajv-check.js): the meta-schemas
// compile without a strict-mode complaint, every example spec matches
// them and the wrong schemas do not. ajv is installed by `make tools`
// (scripts/ajv.sh); missing, the test fails under CI=true and is skipped,
// saying why, elsewhere.
func TestMetaSchemasWithAjv(t *testing.T) {
	dir := ajvDir(t)
	cases := exampleSpecs(t)
	for _, r := range rejected {
		cases = append(cases, rejectedTool(t, r.name, r.yaml))
	}
	data, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	input := filepath.Join(t.TempDir(), "cases.json")
	if err := os.WriteFile(input, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", filepath.Join(repoRoot, "scripts", "ajv-check.js"), dir, ".", input)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ajv-check.js: %v\n%s", err, stderr.String())
	}
	var rep ajvReport
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("ajv-check.js output: %v\n%s", err, out)
	}
	for _, w := range rep.Warnings {
		t.Errorf("ajv strict mode: %s", w)
	}
	if len(rep.Results) != len(cases) {
		t.Fatalf("ajv judged %d files, want %d", len(rep.Results), len(cases))
	}
	for _, r := range rep.Results {
		wantValid := !strings.HasPrefix(r.File, "rejected/")
		if r.Valid != wantValid {
			t.Errorf("ajv: %s valid=%v, want %v: %v", r.File, r.Valid, wantValid, r.Errors)
		}
	}
}

// ajvDir returns the directory scripts/ajv.sh installed ajv into ($AJV_DIR
// or the newest under .cache/ajv/).
func ajvDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("AJV_DIR")
	if dir == "" {
		done, _ := filepath.Glob(filepath.Join(repoRoot, ".cache", "ajv", "*", "done"))
		if len(done) > 0 {
			slices.Sort(done)
			dir = filepath.Dir(done[len(done)-1])
		}
	}
	_, nodeErr := exec.LookPath("node")
	if dir == "" || nodeErr != nil {
		msg := "ajv or node missing: run `make tools` (scripts/ajv.sh installs ajv under .cache/ajv/; Node.js must be on the PATH)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}
