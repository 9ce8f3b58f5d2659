package kotlin

import (
	"fmt"
	"strings"

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
	Funcs                                        []funcView
}

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

// funcView is one generated function: its name, doc and body lines.
type funcView struct {
	Name, Doc string
	Lines     []string
}

// validatorsView builds the validators of every tool's input and output
// schema from the schema graphs of the IR.
func (m *model) validatorsView() (validatorsView, error) {
	v := validatorsView{common: m.common()}
	pool := newConstPool()
	for i, t := range m.tools {
		entry := validatorEntry{Name: kotlinString(t.t.Name)}
		for _, side := range []struct {
			name   string
			schema *ir.Schema
			root   *string
		}{{"input", t.t.Input, &entry.Input}, {"output", t.t.Output, &entry.Output}} {
			if side.schema == nil || side.schema.Graph == nil {
				return v, fmt.Errorf("tool %s: no %s schema graph", t.t.Name, side.name)
			}
			sg := &schemaGen{g: side.schema.Graph, prefix: fmt.Sprintf("t%d_%s", i, side.name[:2]), pool: pool,
				what: fmt.Sprintf("the %s schema of the tool %s", side.name, t.t.Name)}
			funcs, err := sg.functions()
			if err != nil {
				return v, fmt.Errorf("tool %s: %s schema: %w", t.t.Name, side.name, err)
			}
			*side.root = sg.fn(side.schema.Graph.Subschemas[0])
			v.Funcs = append(v.Funcs, funcs...)
		}
		v.Tools = append(v.Tools, entry)
	}
	v.Patterns, v.Numbers, v.Values, v.Enums, v.MemberSets = pool.patterns.list, pool.numbers.list, pool.values.list, pool.enums.list, pool.names.list
	return v, nil
}

// schemaGen generates the functions of one tool schema.
type schemaGen struct {
	g      *ir.Graph
	prefix string
	what   string
	pool   *constPool
	// cyclic marks the subschemas on a cycle of in-place applicators
	// (a reference cycle that does not descend into the instance).
	cyclic map[*ir.Subschema]bool
}

// fn is the name of the function checking subschema s.
func (sg *schemaGen) fn(s *ir.Subschema) string {
	return fmt.Sprintf("%s_%d", sg.prefix, s.ID)
}

// functions generates one function per subschema, in the graph's order;
// a subschema on a reference cycle gets a guard that ends the cycle as
// the Go runtime does (the value is invalid) and the body beside it.
func (sg *schemaGen) functions() ([]funcView, error) {
	sg.cyclic = inPlaceCycles(sg.g)
	var out []funcView
	for _, s := range sg.g.Subschemas {
		if s.Unresolved != "" {
			return nil, fmt.Errorf("%s: $ref %q names nothing in the document", s.Ptr, s.Unresolved)
		}
		lines, err := sg.body(s)
		if err != nil {
			return nil, err
		}
		doc := fmt.Sprintf("%s checks the value at l against %s of %s.", sg.fn(s), pointerText(s.Ptr), sg.what)
		if !sg.cyclic[s] {
			out = append(out, funcView{Name: sg.fn(s), Doc: doc, Lines: lines})
			continue
		}
		out = append(out, funcView{Name: sg.fn(s), Doc: doc + " It ends a reference cycle at one location as invalid.",
			Lines: []string{
				fmt.Sprintf("if (!c.enter(%d, l)) {", s.ID),
				fmt.Sprintf("    c.fail(l, %s, \"reference cycle\")", kotlinString(s.Ptr)),
				"    return false",
				"}",
				"try {",
				fmt.Sprintf("    return %s_body(e, l, c, ev)", sg.fn(s)),
				"} finally {",
				"    c.leave()",
				"}",
			}})
		out = append(out, funcView{Name: sg.fn(s) + "_body", Doc: fmt.Sprintf("%s_body is the check of %s.", sg.fn(s), sg.fn(s)), Lines: lines})
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
func inPlaceCycles(g *ir.Graph) map[*ir.Subschema]bool {
	next := map[*ir.Subschema][]*ir.Subschema{}
	for _, s := range g.Subschemas {
		if s.Ref != nil {
			next[s] = append(next[s], s.Ref)
		}
		for _, c := range g.Subschemas {
			if inPlaceChild(s.Ptr, c.Ptr) {
				next[s] = append(next[s], c)
			}
		}
	}
	cyclic := map[*ir.Subschema]bool{}
	for _, s := range g.Subschemas {
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

// inPlaceChild reports whether the subschema at child sits directly under
// the one at parent in an in-place applicator.
func inPlaceChild(parent, child string) bool {
	rest, ok := strings.CutPrefix(child, parent+"/")
	if !ok {
		return false
	}
	kw, tail, _ := strings.Cut(rest, "/")
	for _, k := range inPlaceKeywords {
		if kw != k {
			continue
		}
		switch k {
		case "not", "if", "then", "else":
			return tail == ""
		}
		return tail != "" && !strings.Contains(tail, "/")
	}
	return false
}

// constPool allocates the object's constants, one per distinct value.
type constPool struct {
	patterns, numbers, values, enums, names constSet
}

// constSet is one kind of constant: names by expression, in first-use order.
type constSet struct {
	prefix string
	byExpr map[string]string
	list   []constView
}

func newConstPool() *constPool {
	return &constPool{
		patterns: constSet{prefix: "PATTERN", byExpr: map[string]string{}},
		numbers:  constSet{prefix: "NUMBER", byExpr: map[string]string{}},
		values:   constSet{prefix: "VALUE", byExpr: map[string]string{}},
		enums:    constSet{prefix: "ENUM", byExpr: map[string]string{}},
		names:    constSet{prefix: "NAMES", byExpr: map[string]string{}},
	}
}

// name returns the constant built by expr, allocating it on first use.
func (cs *constSet) name(expr string) string {
	if n, ok := cs.byExpr[expr]; ok {
		return n
	}
	n := fmt.Sprintf("%s_%d", cs.prefix, len(cs.list))
	cs.byExpr[expr] = n
	cs.list = append(cs.list, constView{Name: n, Expr: expr})
	return n
}
