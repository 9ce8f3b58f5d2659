package kotlin

import (
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/cetpgen/cetpgen/gen/internal/par"
	"github.com/cetpgen/cetpgen/gen/ir"
)

// validatorsView is the view of validators.kt.tmpl: one Kotlin function
// per subschema of every tool schema (so no JVM method grows with the
// schema), the constants they compare with, and the entry points.
type validatorsView struct {
	common
	Tools []validatorEntry
	// Patterns, Numbers, Values, Enums and MemberSets are the object's
	// constants: compiled patterns, exact numbers, JSON values of enum and
	// const, the value lists of enum and the sets of declared member names.
	Patterns, Numbers, Values, Enums, MemberSets []constView
	// Functions are the functions of each tool, rendered by the template
	// validatorFunctions.
	Functions []string
}

// size is the length of the rendered functions.
func (v validatorsView) size() int { return totalLen(v.Functions) }

// validatorEntry is one tool's branch of the input and output entry points.
type validatorEntry struct {
	// Name is the tool name as a Kotlin literal; Input and Output name the
	// functions of the schemas' roots.
	Name, Input, Output string
}

// constView is one private val: its name and the Kotlin expression that
// builds it.
type constView struct {
	Name, Expr string
}

// funcView is one generated function: its name, doc and body, the
// body's lines indented and newline-separated.
type funcView struct {
	Name, Doc, Body string
}

// toolValidators is one tool's part of the validators: its entry, its
// functions and the constants they name by placeholder.
type toolValidators struct {
	entry  validatorEntry
	funcs  []funcView
	consts *localConsts
	err    error
}

// validatorsView builds the validators of every tool's input and output
// schema from the schema graphs of the IR. The tools are generated in
// parallel, each naming its constants by placeholder; the constants are
// then numbered in the tools' order, as one pass over them would, and
// each tool's functions are rendered with the final names.
func (m *model) validatorsView() (validatorsView, error) {
	v := validatorsView{common: m.common()}
	tools := make([]toolValidators, len(m.tools))
	par.Each(len(m.tools), func(i int) { tools[i] = m.toolValidators(i) })
	pool := newConstPool()
	for i, tv := range tools {
		if tv.err != nil {
			return v, tv.err
		}
		names, err := pool.adopt(tv.consts)
		if err != nil {
			return v, fmt.Errorf("tool %s: %w", m.tools[i].t.Name, err)
		}
		for j := range tv.funcs {
			if tv.funcs[j].Body, err = resolve(tv.funcs[j].Body, names); err != nil {
				return v, fmt.Errorf("tool %s: %w", m.tools[i].t.Name, err)
			}
		}
		v.Tools = append(v.Tools, tv.entry)
	}
	v.Patterns, v.Numbers, v.Values, v.Enums, v.MemberSets = pool.lists()
	var err error
	v.Functions, err = renderEach(len(tools), "validatorFunctions", func(i int) any { return tools[i].funcs })
	return v, err
}

// toolValidators generates the functions of the input and output schemas
// of the i-th tool.
func (m *model) toolValidators(i int) toolValidators {
	t := m.tools[i]
	tv := toolValidators{entry: validatorEntry{Name: kotlinString(t.t.Name)}, consts: newLocalConsts()}
	for _, side := range []struct {
		name   string
		schema *ir.Schema
		root   *string
	}{{"input", t.t.Input, &tv.entry.Input}, {"output", t.t.Output, &tv.entry.Output}} {
		if side.schema == nil || side.schema.Graph == nil {
			tv.err = fmt.Errorf("tool %s: no %s schema graph", t.t.Name, side.name)
			return tv
		}
		sg := newSchemaGen(side.schema.Graph, "t"+dec(i)+"_"+side.name[:2], tv.consts,
			"the "+side.name+" schema of the tool "+t.t.Name)
		funcs, err := sg.functions()
		if err != nil {
			tv.err = fmt.Errorf("tool %s: %s schema: %w", t.t.Name, side.name, err)
			return tv
		}
		*side.root = sg.fn(side.schema.Graph.Subschemas()[0])
		tv.funcs = append(tv.funcs, funcs...)
	}
	return tv
}

// schemaGen generates the functions of one tool schema.
type schemaGen struct {
	g      *ir.Graph
	idx    subIndex
	what   string
	consts *localConsts
	// names are the functions' names, by subschema ID.
	names []string
	// scratch is the line buffer the bodies reuse: each body's text is
	// copied out of it when the body is finished.
	scratch []byte
	// cyclic marks the subschemas on a cycle of in-place applicators
	// (a reference cycle that does not descend into the instance).
	cyclic map[*ir.Subschema]bool
}

// newSchemaGen prepares the generation of graph g's functions, named
// prefix_<ID>; what names the schema in doc comments.
func newSchemaGen(g *ir.Graph, prefix string, consts *localConsts, what string) *schemaGen {
	sg := &schemaGen{g: g, idx: newSubIndex(g), what: what, consts: consts, names: make([]string, len(g.Subschemas()))}
	for i := range sg.names {
		sg.names[i] = prefix + "_" + dec(i)
	}
	return sg
}

// fn is the name of the function checking subschema s.
func (sg *schemaGen) fn(s *ir.Subschema) string { return sg.names[s.ID] }

// functions generates one function per subschema, in the graph's order;
// a subschema on a reference cycle gets a guard that ends the cycle as
// the Go runtime does (the value is invalid) and the body beside it.
func (sg *schemaGen) functions() ([]funcView, error) {
	sg.cyclic = inPlaceCycles(sg.idx)
	out := make([]funcView, 0, len(sg.g.Subschemas()))
	for _, s := range sg.g.Subschemas() {
		if s.Unresolved != "" {
			return nil, fmt.Errorf("%s: $ref %q names nothing in the document", s.Ptr, s.Unresolved)
		}
		text, err := sg.body(s)
		if err != nil {
			return nil, err
		}
		name := sg.fn(s)
		doc := name + " checks the value at l against " + pointerText(s.Ptr) + " of " + sg.what + "."
		if !sg.cyclic[s] {
			out = append(out, funcView{Name: name, Doc: doc, Body: text})
			continue
		}
		guard := &body{}
		guard.line("if (!c.enter(", dec(s.ID), ", l)) {")
		guard.line("    c.fail(l, ", kotlinString(s.Ptr), ", \"reference cycle\")")
		guard.line("    return false")
		guard.line("}")
		guard.line("try {")
		guard.line("    return ", name, "_body(e, l, c, ev)")
		guard.line("} finally {")
		guard.line("    c.leave()")
		guard.line("}")
		out = append(out, funcView{Name: name, Doc: doc + " It ends a reference cycle at one location as invalid.", Body: guard.text()},
			funcView{Name: name + "_body", Doc: name + "_body is the check of " + name + ".", Body: text})
	}
	return out, nil
}

// pointerText names a subschema by pointer in a doc comment.
func pointerText(ptr string) string {
	if ptr == "" {
		return "the root"
	}
	return "the subschema " + lineComment(ptr)
}

// inPlaceKeywords are the applicators that evaluate their subschemas at
// the instance's own location.
var inPlaceKeywords = []string{"allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas"}

// inPlaceCycles returns the subschemas that can reach themselves through
// "$ref" and in-place applicators alone.
func inPlaceCycles(x subIndex) map[*ir.Subschema]bool {
	g := x.g
	next := map[*ir.Subschema][]*ir.Subschema{}
	for _, s := range g.Subschemas() {
		if s.Ref != nil {
			next[s] = append(next[s], s.Ref)
		}
		next[s] = append(next[s], inPlaceChildren(x, s)...)
	}
	cyclic := map[*ir.Subschema]bool{}
	for _, s := range g.Subschemas() {
		seen := map[*ir.Subschema]bool{}
		stack := append([]*ir.Subschema(nil), next[s]...)
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if n == s {
				cyclic[s] = true
				break
			}
			if !seen[n] {
				seen[n] = true
				stack = append(stack, next[n]...)
			}
		}
	}
	return cyclic
}

// inPlaceChildren returns the subschemas directly under s in an in-place
// applicator, looked up by the keyword's pointer tokens.
func inPlaceChildren(x subIndex, s *ir.Subschema) []*ir.Subschema {
	obj := s.Obj()
	if obj == nil {
		return nil
	}
	var out []*ir.Subschema
	add := func(tokens ...string) {
		if c := x.at(s, tokens...); c != nil {
			out = append(out, c)
		}
	}
	for _, kw := range inPlaceKeywords {
		switch kw {
		case "not", "if", "then", "else":
			add(kw)
		case "dependentSchemas":
			m, _ := obj[kw].(map[string]any)
			for _, k := range slices.Sorted(maps.Keys(m)) {
				add(kw, k)
			}
		default:
			list, _ := obj[kw].([]any)
			for i := range list {
				add(kw, strconv.Itoa(i))
			}
		}
	}
	return out
}
