package validate

import (
	"testing"
	"testing/fstest"

	"github.com/cetpgen/cetpgen/gen/spec"
)

const fuzzProvider = `cetpgen: 1
provider: {id: com.example.fuzz, name: Fuzz, description: Fuzzing}
android: {package: com.example.fuzz, authority: com.example.fuzz.tools}
versions: [2]
capabilities: [async_operations]
scopes:
  - {name: x.read, title: X, description: X, access: read, sensitivity: other}
`

// FuzzTool validates an arbitrary tool file under a fixed, valid
// provider.yaml: meta-schema mapping, the $ref scanner, the JSON Schema
// compiler and every rule run on hostile input. It must never panic, and
// every diagnostic must point into a spec file.
// Seeds: testdata/fuzz/FuzzTool.
func FuzzTool(f *testing.F) {
	f.Add([]byte("name: t\ntitle: T\ndescription: D\ninput_schema: {type: object, $defs: {a: {$ref: '#/$defs/a'}}}\n" +
		"output_schema: {$ref: '#/x'}\nscopes: [x.read]\nannotations: {effect: read, risk: low, destructive: false, " +
		"idempotent: true, open_world: false, confirmation: never, execution: sync}\n"))
	f.Fuzz(func(t *testing.T, tool []byte) {
		fsys := fstest.MapFS{
			"provider.yaml": {Data: []byte(fuzzProvider)},
			"tools/t.yaml":  {Data: tool},
		}
		set, l, err := spec.Load(fsys, "fuzz")
		if err != nil {
			t.Fatal(err)
		}
		_, vl, err := Validate(set)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range append(l, vl...) {
			if d.Pos.File == "" || d.Pos.Line < 1 || d.Rule == "" {
				t.Fatalf("diagnostic without a position or rule: %v", d)
			}
		}
	})
}
