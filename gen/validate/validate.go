package validate

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/cetpgen/cetpgen/gen/diag"
	"github.com/cetpgen/cetpgen/gen/spec"
)

// Spec is a Provider spec that passed validation: the loaded files and
// their decoded wire structs, ready for package ir.
type Spec struct {
	Set      *spec.Set
	Provider *spec.Provider
	// Tools are the decoded tools, in the order of Set.Tools.
	Tools []*spec.Tool
}

// Validate runs every check on a loaded spec directory. It returns the
// diagnostics and, when none of them is an error, the validated Spec. The
// error is for failures of cetpgen itself, not of the specs.
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
	tools, d, err := checkTools(m, set.Tools)
	if err != nil {
		return nil, nil, err
	}
	l.Add(d...)
	if p != nil {
		l.Add(providerRules(set.Provider, p)...)
		l.Add(crossRules(set, p, tools)...)
	}
	if l.HasErrors() {
		return nil, l, nil
	}
	return &Spec{Set: set, Provider: p, Tools: tools}, l, nil
}

// checkProvider runs the meta-schema on provider.yaml and decodes it.
func checkProvider(m *metaSchemas, doc *spec.Doc) (*spec.Provider, diag.List, error) {
	if doc == nil {
		return nil, nil, nil
	}
	if l := m.check(doc, m.provider); len(l) > 0 {
		return nil, l, nil
	}
	p, err := spec.DecodeProvider(doc)
	return p, nil, err
}

// toolResult is what checking one tool file yields.
type toolResult struct {
	tool  *spec.Tool
	diags diag.List
	err   error
}

// checkTools checks every tool file on GOMAXPROCS workers. The result keeps
// the order of docs; a tool that failed its meta-schema is nil.
func checkTools(m *metaSchemas, docs []*spec.Doc) ([]*spec.Tool, diag.List, error) {
	results := make([]toolResult, len(docs))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(docs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < len(docs); i = int(next.Add(1) - 1) {
				results[i] = checkTool(m, docs[i])
			}
		}()
	}
	wg.Wait()
	return collect(results)
}

func collect(results []toolResult) ([]*spec.Tool, diag.List, error) {
	tools := make([]*spec.Tool, len(results))
	var l diag.List
	for i, r := range results {
		if r.err != nil {
			return nil, nil, r.err
		}
		tools[i] = r.tool
		l.Add(r.diags...)
	}
	return tools, l, nil
}

// checkTool validates one tool file up to what needs no provider facts.
func checkTool(m *metaSchemas, doc *spec.Doc) toolResult {
	if l := m.check(doc, m.tool); len(l) > 0 {
		return toolResult{diags: l}
	}
	t, err := spec.DecodeTool(doc)
	if err != nil {
		return toolResult{err: fmt.Errorf("validate %s: %w", doc.Path, err)}
	}
	var l diag.List
	l.Add(checkSchema(doc, "/input_schema", t.InputSchema)...)
	l.Add(checkSchema(doc, "/output_schema", t.OutputSchema)...)
	l.Add(inputIsObject(doc, t)...)
	l.Add(toolRules(doc, t)...)
	l.Add(toolLints(doc, t)...)
	return toolResult{tool: t, diags: l}
}
