package validate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/cetpgen/cetpgen/gen/diag"
	"github.com/cetpgen/cetpgen/gen/source"
	"github.com/cetpgen/cetpgen/gen/spec"
	"github.com/cetpgen/cetpgen/schema"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// metaSchemas are the two compiled meta-schemas and their raw JSON, which
// diagnostics consult to list the keys and values allowed at a place.
type metaSchemas struct {
	provider, tool *jsonschema.Schema
	raw            map[string]any // meta-schema $id -> decoded document
}

var (
	metaOnce sync.Once
	meta     *metaSchemas
	metaErr  error
	printer  = message.NewPrinter(language.English)
)

var (
	flatOnce sync.Once
	flatMeta *jsonschema.Schema
	flatErr  error
)

// loadFlatMeta compiles schema/jsonschema-2020-12.flat.json once per
// process, with format assertions on (uri, uri-reference, regex), as the
// official meta-schema is applied by jsonschema/v6.
func loadFlatMeta() (*jsonschema.Schema, error) {
	flatOnce.Do(func() {
		c := newCompiler()
		c.AssertFormat()
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema.JSONSchemaFlat))
		if err == nil {
			err = c.AddResource(schema.JSONSchemaFlatURL, doc)
		}
		if err == nil {
			flatMeta, err = c.Compile(schema.JSONSchemaFlatURL)
		}
		flatErr = err
	})
	return flatMeta, flatErr
}

// Prepare compiles the meta-schemas, which Validate otherwise does on its
// first call, so that a caller can do it while it loads the specs. It is
// safe to call from any goroutine, any number of times.
func Prepare() {
	loadMeta()
	loadFlatMeta()
}

// loadMeta compiles the embedded meta-schemas once per process.
func loadMeta() (*metaSchemas, error) {
	metaOnce.Do(func() { meta, metaErr = compileMeta() })
	return meta, metaErr
}

func compileMeta() (*metaSchemas, error) {
	c := jsonschema.NewCompiler()
	c.UseLoader(refuseLoader{})
	m := &metaSchemas{raw: map[string]any{}}
	for url, data := range map[string][]byte{schema.ProviderURL: schema.Provider, schema.ToolURL: schema.Tool} {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("meta-schema %s: %w", url, err)
		}
		if url == schema.ToolURL {
			doc, err = shapeOnlyToolSchemas(doc)
			if err != nil {
				return nil, err
			}
		}
		if err := c.AddResource(url, doc); err != nil {
			return nil, fmt.Errorf("meta-schema %s: %w", url, err)
		}
		m.raw[url] = doc
	}
	var err error
	if m.provider, err = c.Compile(schema.ProviderURL); err != nil {
		return nil, fmt.Errorf("compile provider meta-schema: %w", err)
	}
	if m.tool, err = c.Compile(schema.ToolURL); err != nil {
		return nil, fmt.Errorf("compile tool meta-schema: %w", err)
	}
	return m, nil
}

// toolSchemaShapes are the $defs of schema/tool.schema.json that apply
// the JSON Schema 2020-12 meta-schema to a tool's input_schema and
// output_schema, for editors and other validators, replaced here by the
// shape alone: checkSchema and inputIsObject check those schemas with
// diagnostics at the offending keyword, and the meta-schema must not
// report the same mistake a second time, less precisely.
var toolSchemaShapes = map[string]any{
	"inputSchema":  map[string]any{"type": "object"},
	"outputSchema": map[string]any{"type": []any{"object", "boolean"}},
}

// shapeOnlyToolSchemas returns the decoded tool meta-schema with
// toolSchemaShapes in place of its schema $defs.
func shapeOnlyToolSchemas(doc any) (any, error) {
	root, _ := doc.(map[string]any)
	defs, _ := root["$defs"].(map[string]any)
	for name, shape := range toolSchemaShapes {
		if _, ok := defs[name]; !ok {
			return nil, fmt.Errorf("meta-schema %s: no $defs/%s", schema.ToolURL, name)
		}
		defs[name] = shape
	}
	return doc, nil
}

// refuseLoader is the URL loader of every compiler here: specs never reach
// the network or the file system through $ref.
type refuseLoader struct{}

func (refuseLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("loading %s is not allowed: $ref may only point inside the same schema document", url)
}

// check validates doc against sch and maps each failure to its node. It
// also returns the JSON pointers of the failures, so that the checks that
// do not depend on them can still run.
func (m *metaSchemas) check(doc *spec.Doc, sch *jsonschema.Schema) (diag.List, failures) {
	err := sch.Validate(doc.Value)
	if err == nil {
		return nil, nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		var l diag.List
		l.Errorf(doc.Pos(""), "meta-schema", "%v", err)
		return l, failures{""}
	}
	var l diag.List
	var bad failures
	for _, leaf := range leaves(ve) {
		l.Add(m.describe(doc, leaf)...)
		bad = append(bad, failedPointers(leaf)...)
	}
	return l, bad
}

// failedPointers are the places one meta-schema failure is about: the
// unknown or missing members themselves, or the value that is wrong.
func failedPointers(ve *jsonschema.ValidationError) []string {
	ptr := instancePointer(ve)
	var names []string
	switch k := ve.ErrorKind.(type) {
	case *kind.AdditionalProperties:
		names = k.Properties
	case *kind.Required:
		names = k.Missing
	default:
		return []string{ptr}
	}
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = ptr + "/" + spec.EscapeToken(n)
	}
	return out
}

// leaves returns the innermost errors of a validation error tree: the ones
// that name a concrete keyword at a concrete place.
func leaves(ve *jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(ve.Causes) == 0 {
		return []*jsonschema.ValidationError{ve}
	}
	var out []*jsonschema.ValidationError
	for _, c := range ve.Causes {
		out = append(out, leaves(c)...)
	}
	return out
}

// instancePointer turns an error's instance location into a JSON pointer.
func instancePointer(ve *jsonschema.ValidationError) string {
	return spec.Pointer(ve.InstanceLocation...)
}

// describe turns one meta-schema failure into diagnostics with rule IDs a
// user can look up.
func (m *metaSchemas) describe(doc *spec.Doc, ve *jsonschema.ValidationError) diag.List {
	var l diag.List
	ptr := instancePointer(ve)
	switch k := ve.ErrorKind.(type) {
	case *kind.AdditionalProperties:
		keys := m.allowedKeys(ve.SchemaURL)
		for _, p := range k.Properties {
			l.Errorf(doc.KeyPos(ptr+"/"+spec.EscapeToken(p)), "unknown-key", "unknown key %q%s", p, suggestKey(p, keys))
		}
	case *kind.Required:
		for _, p := range k.Missing {
			l.Errorf(parentKeyPos(doc, ptr), "missing-key", "missing required key %q%s", p, where(ptr))
		}
	case *kind.Type:
		l.Errorf(doc.Pos(ptr), "wrong-type", "expected %s, got %s", strings.Join(k.Want, " or "), k.Got)
	case *kind.Enum:
		l.Errorf(doc.Pos(ptr), "bad-enum-value", "unknown value %s; expected one of %s", jsonText(k.Got), jsonList(k.Want))
	case *kind.Const:
		l.Errorf(doc.Pos(ptr), "bad-enum-value", "unknown value %s; expected %s", jsonText(k.Got), jsonText(k.Want))
	case *kind.Pattern:
		l.Errorf(doc.Pos(ptr), "bad-name", "%q is not a valid %s (must match %s)", k.Got, nameKind(ptr), k.Want)
	case *kind.Minimum:
		l.Errorf(doc.Pos(ptr), "below-minimum", "%s is below the protocol minimum %s", k.Got.RatString(), k.Want.RatString())
	case *kind.Maximum:
		l.Errorf(doc.Pos(ptr), "above-maximum", "%s is above the maximum %s", k.Got.RatString(), k.Want.RatString())
	case *kind.MinLength:
		l.Errorf(doc.Pos(ptr), "bad-length", "must not be empty")
	case *kind.MaxLength:
		l.Errorf(doc.Pos(ptr), "bad-length", "is %d characters long; at most %d are allowed", k.Got, k.Want)
	case *kind.MinItems:
		l.Errorf(doc.Pos(ptr), "bad-list", "must list at least %d item(s)", k.Want)
	case *kind.UniqueItems:
		l.Errorf(doc.Pos(ptr+"/"+itoa(k.Duplicates[1])), "bad-list", "item %d repeats item %d; list each value once", k.Duplicates[1]+1, k.Duplicates[0]+1)
	default:
		l.Errorf(doc.Pos(ptr), "meta-schema", "%s", ve.ErrorKind.LocalizedString(printer))
	}
	return l
}

// parentKeyPos is where a missing member is reported: at the key of the
// mapping that lacks it (annotations:), or at the file start for the top
// level, rather than at whichever member happens to come first.
func parentKeyPos(doc *spec.Doc, ptr string) source.Pos {
	if ptr == "" {
		return source.FileStart(doc.Path)
	}
	return doc.KeyPos(ptr)
}

// allowedKeys lists the properties the meta-schema allows at schemaURL (the
// location of the failing additionalProperties keyword), sorted.
func (m *metaSchemas) allowedKeys(schemaURL string) []string {
	base, frag, _ := strings.Cut(schemaURL, "#")
	node := lookup(m.raw[base], strings.TrimSuffix(frag, "/additionalProperties"))
	obj, _ := node.(map[string]any)
	props, _ := obj["properties"].(map[string]any)
	return sortedKeys(props)
}

// suggestKey names the key an unknown key most likely misspells, then
// every key allowed at its place.
func suggestKey(key string, allowed []string) string {
	if len(allowed) == 0 {
		return ""
	}
	list := strings.Join(allowed, ", ")
	if near := nearest(key, allowed); near != "" {
		return "; did you mean " + near + "? (allowed keys here: " + list + ")"
	}
	return "; allowed keys here: " + list
}

// lookup resolves a JSON pointer inside a decoded JSON document.
func lookup(v any, ptr string) any {
	if ptr == "" {
		return v
	}
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		obj, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = obj[spec.UnescapeToken(tok)]
	}
	return v
}

func where(ptr string) string {
	if ptr == "" {
		return ""
	}
	return " in " + strings.TrimPrefix(ptr, "/")
}

// nameKind names what a pattern-checked value is, for the message.
func nameKind(ptr string) string {
	switch {
	case ptr == "/name":
		return "tool name"
	case strings.HasPrefix(ptr, "/scopes/") && strings.HasSuffix(ptr, "/name"), strings.HasPrefix(ptr, "/scopes/"):
		return "scope name"
	case ptr == "/provider/id":
		return "provider id"
	case ptr == "/android/package":
		return "Android package name"
	case ptr == "/android/authority":
		return "content authority"
	case strings.HasPrefix(ptr, "/cli/"):
		return "command path"
	case ptr == "/targets/go/server":
		return "Go server directory under cmd/"
	}
	return "value"
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func jsonList(vs []any) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = jsonText(v)
	}
	return strings.Join(parts, ", ")
}
