package kotlin

import (
	"sync"

	"github.com/cetpgen/cetpgen/gen/ir"
	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// providerNames are the Provider-level Kotlin names, allocated by the IR;
// J is the shape-check object (KotlinNames.Json), the name the templates
// use.
type providerNames struct {
	ir.KotlinNames
	J string
}

// toolNames are one tool's Kotlin names.
type toolNames struct {
	// Object holds the tool's conversions (and, in the Schemas object, its
	// schemas); Method is its abstract typed method; Dispatch the private
	// function that decodes, calls and encodes.
	Object, Method, Dispatch string
}

// model is everything the templates need for one Provider.
type model struct {
	p     *ir.Provider
	names providerNames
	tools []*toolModel
	// base is the view of the base class, built once for the base class
	// and the skeleton.
	base func() baseView
}

// toolModel is one tool with its names and the types of its roots.
type toolModel struct {
	t             *ir.Tool
	names         toolNames
	input, output *ktype
}

// newModel takes the Provider's Kotlin names from the IR and maps the
// roots of its schemas.
func newModel(p *ir.Provider) *model {
	m := &model{p: p, names: providerNames{KotlinNames: p.Kotlin, J: p.Kotlin.Json}}
	for _, t := range p.Tools {
		tn := toolNames{Object: t.Names.KotlinObject, Method: quoted(t.Names.KotlinMethod), Dispatch: "dispatch_" + t.Name}
		m.tools = append(m.tools, &toolModel{t: t, names: tn, input: use(t.Input.Graph.Root), output: use(t.Output.Graph.Root)})
	}
	m.base = sync.OnceValue(m.baseView)
	return m
}

// hasConfirmation reports whether any tool has the confirmation policy c.
func (m *model) hasConfirmation(c protocol.Confirmation) bool {
	for _, t := range m.tools {
		if t.t.Annotations.Confirmation == c {
			return true
		}
	}
	return false
}

// writes reports whether any tool changes state.
func (m *model) writes() bool {
	for _, t := range m.tools {
		if t.t.Annotations.Effect.Writes() {
			return true
		}
	}
	return false
}

// v1Served reports whether CETP v1 serves the tool: a dual-stack Provider's
// read tools that need no per-call confirmation.
func (m *model) v1Served(t *ir.Tool) bool {
	return m.p.DualStack() && t.Annotations.Effect == protocol.EffectRead && t.Annotations.Confirmation != protocol.ConfirmAlways
}
