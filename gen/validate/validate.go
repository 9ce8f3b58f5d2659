package validate

import (
	"fmt"

	"github.com/cetpgen/cetpgen/gen/diag"
	"github.com/cetpgen/cetpgen/gen/internal/par"
	"github.com/cetpgen/cetpgen/gen/spec"
)

// Spec is a Provider spec that passed validation: the loaded files and
// their decoded wire structs, ready for package ir.
type Spec struct {
	Set      *spec.Set
	Provider *spec.Provider
	// Tools are the decoded tools, in the order of Set.Tools.
	Tools []*spec.Tool
	// JSON are the canonical encodings (spec.Canonical) of the tools'
	// schemas, in the order of Tools, so that they are computed once.
	JSON []ToolJSON
}

// ToolJSON is the canonical JSON of a tool's input and output schemas.
type ToolJSON struct{ Input, Output []byte }

// Validate runs every check on a loaded spec directory. It returns the
// diagnostics and, when none of them is an error, the validated Spec. The
// error is for failures of cetpgen itself, not of the specs.
//
// A file that breaks its meta-schema does not hide the other problems of
// the spec: every check whose input is not part of a failure still runs,
// on this file and across files.
func Validate(set *spec.Set) (*Spec, diag.List, error) {
	m, err := loadMeta()
	if err != nil {
		return nil, nil, err
	}
	var l diag.List
	p, d, err := checkProvider(m, set.Provider)
	if err != nil {
		return nil, nil, err
	}
	l.Add(d...)
	results, err := checkTools(m, set.Tools)
	if err != nil {
		return nil, nil, err
	}
	for _, r := range results {
		l.Add(r.diags...)
	}
	if p != nil {
		l.Add(providerRules(set.Provider, p)...)
		l.Add(crossRules(set, p, results)...)
	}
	if l.HasErrors() {
		return nil, l, nil
	}
	return &Spec{Set: set, Provider: p.decoded(), Tools: toolsOf(results), JSON: jsonOf(results)}, l, nil
}

// checkedProvider is provider.yaml decoded, with the places at which it
// broke its meta-schema.
type checkedProvider struct {
	wire *spec.Provider
	bad  failures
}

// decoded returns the wire struct, or nil when there is no provider.yaml.
func (p *checkedProvider) decoded() *spec.Provider {
	if p == nil {
		return nil
	}
	return p.wire
}

// checkProvider runs the meta-schema on provider.yaml and decodes it; the
// parts that broke the meta-schema are left out of the decoded struct.
func checkProvider(m *metaSchemas, doc *spec.Doc) (*checkedProvider, diag.List, error) {
	if doc == nil {
		return nil, nil, nil
	}
	l, bad := m.check(doc, m.provider)
	if bad.failedAt("") {
		return nil, l, nil
	}
	p, err := spec.DecodeProvider(&spec.Doc{Path: doc.Path, Value: bad.pruned(doc.Value)})
	if err != nil && len(bad) > 0 {
		return nil, l, nil // what is left does not decode: only the meta-schema speaks
	}
	if err != nil {
		return nil, nil, err
	}
	return &checkedProvider{wire: p, bad: bad}, l, nil
}

// toolResult is what checking one tool file yields: the decoded tool (nil
// when the file is not an object), the places at which it broke its
// meta-schema, and its diagnostics.
type toolResult struct {
	tool  *spec.Tool
	doc   *spec.Doc
	bad   failures
	json  ToolJSON
	diags diag.List
	err   error
}

// usable reports whether the tool decoded and the parts at ptrs are sound.
func (r toolResult) usable(ptrs ...string) bool {
	return r.tool != nil && r.bad.clean(ptrs...)
}

// checkTools checks every tool file on GOMAXPROCS workers. The results keep
// the order of docs.
func checkTools(m *metaSchemas, docs []*spec.Doc) ([]toolResult, error) {
	results := make([]toolResult, len(docs))
	var schemas validSchemas
	par.Each(len(docs), func(i int) { results[i] = checkTool(m, &schemas, docs[i]) })
	for _, r := range results {
		if r.err != nil {
			return nil, r.err
		}
	}
	return results, nil
}

// toolsOf returns the decoded tools of results, in order.
func toolsOf(results []toolResult) []*spec.Tool {
	tools := make([]*spec.Tool, len(results))
	for i, r := range results {
		tools[i] = r.tool
	}
	return tools
}

// jsonOf returns the canonical schema JSON of results, in order.
func jsonOf(results []toolResult) []ToolJSON {
	out := make([]ToolJSON, len(results))
	for i, r := range results {
		out[i] = r.json
	}
	return out
}

// checkTool validates one tool file up to what needs no provider facts;
// schemas equal to one that passed in this run are not checked again.
func checkTool(m *metaSchemas, schemas *validSchemas, doc *spec.Doc) toolResult {
	l, bad := m.check(doc, m.tool)
	r := toolResult{doc: doc, bad: bad}
	if _, isObject := doc.Value.(map[string]any); !isObject {
		r.diags = l
		return r
	}
	t, err := spec.DecodeTool(doc)
	if err != nil {
		return toolResult{err: fmt.Errorf("validate %s: %w", doc.Path, err)}
	}
	r.tool = t
	if r.usable("/input_schema") {
		d, data := schemas.check(doc, "/input_schema", t.InputSchema)
		l.Add(d...)
		r.json.Input = data
		l.Add(schemaLints(doc, "/input_schema", t.InputSchema)...)
		l.Add(inputIsObject(doc, t)...)
	}
	if r.usable("/output_schema") {
		d, data := schemas.check(doc, "/output_schema", t.OutputSchema)
		l.Add(d...)
		r.json.Output = data
		l.Add(schemaLints(doc, "/output_schema", t.OutputSchema)...)
	}
	if r.usable("/annotations") {
		l.Add(toolRules(doc, t)...)
	}
	l.Add(toolLints(doc, r)...)
	r.diags = l
	return r
}
