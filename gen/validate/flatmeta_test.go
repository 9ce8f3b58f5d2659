package validate

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"os"

	"github.com/cetpgen/cetpgen/gen/spec"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// metaCases are schemas the flattened and the official 2020-12 meta-schema
// must judge alike, valid and invalid, keyword by keyword. ($schema values
// are left out: the schema-dialect rule settles them before either runs.)
var metaCases = []string{
	`{}`, `true`, `false`, `{"type":["string","null"]}`, `{"$defs":{"a":{"type":"integer"}},"$ref":"#/$defs/a"}`,
	`{"dependencies":{"a":["b"],"c":{"type":"string"}}}`, `{"$anchor":"x"}`, `{"format":"date-time"}`,
	`{"unevaluatedProperties":false,"unevaluatedItems":{}}`, `{"patternProperties":{"^a":{}}}`,
	`{"contentSchema":{},"contentMediaType":"application/json","contentEncoding":"base64"}`,
	`{"x-custom":1}`, `{"enum":[]}`, `{"const":null}`, `{"prefixItems":[{}],"items":false}`,
	`{"if":{},"then":{},"else":{}}`, `{"dependentRequired":{"a":["b"]},"dependentSchemas":{"a":{}}}`,
	`{"$comment":"c","deprecated":true,"readOnly":false,"writeOnly":false,"examples":[1]}`,
	`{"$dynamicAnchor":"m","$dynamicRef":"#m"}`, `{"$recursiveAnchor":"a","$recursiveRef":"#"}`,
	`{"definitions":{"a":{}}}`, `{"$id":"urn:x:y"}`, `{"$vocabulary":{"https://x.example/v":true}}`,
	`{"type":"objekt"}`, `{"type":[]}`, `{"type":["string","string"]}`, `{"minimum":"5"}`, `{"pattern":"("}`,
	`{"required":"a"}`, `{"required":["a","a"]}`, `{"minItems":-1}`, `{"multipleOf":0}`, `{"items":5}`,
	`{"allOf":[]}`, `{"anyOf":[5]}`, `{"$anchor":"1x"}`, `{"$id":"#frag"}`, `{"patternProperties":{"(":{}}}`,
	`{"properties":{"a":5}}`, `{"$defs":{"a":"x"}}`, `{"dependencies":{"a":5}}`, `{"maxLength":1.5}`,
	`{"title":5}`, `{"$vocabulary":{"x":true}}`, `{"format":5}`,
	`{"not":{"type":"objekt"}}`, `{"properties":{"a":{"properties":{"b":{"minimum":"x"}}}}}`,
	`{"uniqueItems":"yes"}`, `{"deprecated":"no"}`, `{"examples":{}}`, `{"contentSchema":1}`,
}

// TestFlatMetaAgrees checks the flattened meta-schema against the official
// one on metaCases and on every schema of the example specs.
func TestFlatMetaAgrees(t *testing.T) {
	flat, err := loadFlatMeta()
	if err != nil {
		t.Fatal(err)
	}
	for i, src := range append(metaCases, exampleSchemas(t)...) {
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(src))
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		official := officialAccepts(doc, i)
		if flatOK := flat.Validate(doc) == nil; flatOK != official {
			t.Errorf("%s: official meta-schema accepts=%v, flattened accepts=%v", src, official, flatOK)
		}
	}
}

// officialAccepts compiles doc the ordinary way, which validates it against
// the official 2020-12 meta-schema first.
func officialAccepts(doc any, i int) bool {
	c := newCompiler()
	url := fmt.Sprintf("https://cetpgen.invalid/agree/%d", i)
	if err := c.AddResource(url, doc); err != nil {
		return false
	}
	_, err := c.Compile(url)
	var sve *jsonschema.SchemaValidationError
	return err == nil || !asSchemaValidation(err, &sve)
}

func asSchemaValidation(err error, target **jsonschema.SchemaValidationError) bool {
	e, ok := err.(*jsonschema.SchemaValidationError)
	*target = e
	return ok
}

func exampleSchemas(t *testing.T) []string {
	t.Helper()
	files, _ := filepath.Glob("../../specs/*/tools/*.yaml")
	var out []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc, l := spec.Parse(f, f, data)
		if doc == nil {
			t.Fatal(l)
		}
		for _, k := range []string{"input_schema", "output_schema"} {
			out = append(out, jsonText(doc.Value.(map[string]any)[k]))
		}
	}
	if len(out) == 0 {
		t.Fatal("no example schemas")
	}
	return out
}
