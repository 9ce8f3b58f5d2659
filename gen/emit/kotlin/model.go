package kotlin

import (
	"github.com/cetpgen/cetpgen/gen/ir"
)

// providerNames are the Provider-level Kotlin names, all derived from the
// spec's Kotlin class.
type providerNames struct {
	Class, Base, J, Optional, Reply, Confirmation, Schemas, Service string
}

// toolNames are one tool's Kotlin names.
type toolNames struct {
	// Object holds the tool's types; Method is its abstract typed method;
	// Dispatch the private function that decodes, calls and encodes.
	Object, Method, Dispatch string
	// InputSchema and OutputSchema are vals of the Schemas object.
	InputSchema, OutputSchema string
}

// model is everything the templates need for one Provider.
type model struct {
	p     *ir.Provider
	names providerNames
	tools []*toolModel
}

// toolModel is one tool with its names and types.
type toolModel struct {
	t     *ir.Tool
	names toolNames
	types *toolTypes
}

// baseMembers are the members of the generated base class and of the SDK
// and Android classes above it; a tool method never takes these names.
var baseMembers = []string{
	"provider", "providerTools", "mutationExecutor", "sessionTtlMillis",
	"onCetpCreate", "handleV1Call", "canDiscoverTool", "authorize",
	"executeTool", "getOperation", "cancelOperation", "onCreate", "call",
	"query", "getType", "insert", "delete", "update", "getContext",
	"holdsScope", "onMissingScopes", "confirm", "confirmByPolicy",
	"equals", "hashCode", "toString",
}

// newModel names the Provider's Kotlin declarations and maps its schemas.
func newModel(p *ir.Provider) *model {
	c := p.Targets.KotlinClass
	n := providerNames{Class: c, Base: c + "Base", J: c + "Json", Optional: c + "Optional",
		Reply: c + "Reply", Confirmation: c + "Confirmation", Schemas: c + "Schemas", Service: c + "DiscoveryService"}
	top := []string{n.Class, n.Base, n.J, n.Optional, n.Reply, n.Confirmation, n.Schemas, n.Service}
	objects := newAllocator(append(append([]string{}, reservedTypeNames...), top...)...)
	methods := newAllocator(baseMembers...)
	vals := newAllocator()
	m := &model{p: p, names: n}
	for _, t := range p.Tools {
		tn := toolNames{
			Object:   objects.name(pascal(t.Name, "Tool")),
			Method:   quoted(methods.name(camel(t.Name, "tool"))),
			Dispatch: "dispatch_" + t.Name,
		}
		tn.InputSchema = vals.name(camel(t.Name, "tool") + "Input")
		tn.OutputSchema = vals.name(camel(t.Name, "tool") + "Output")
		types := buildToolTypes(schemaValue(t.Input), schemaValue(t.Output), append(top, tn.Object))
		m.tools = append(m.tools, &toolModel{t: t, names: tn, types: types})
	}
	return m
}

// schemaValue returns a schema's decoded value, or nil.
func schemaValue(s *ir.Schema) any {
	if s == nil {
		return nil
	}
	return s.Value
}

// hasConfirmation reports whether any tool has the confirmation policy c.
func (m *model) hasConfirmation(c ir.Confirmation) bool {
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
	return m.p.DualStack() && t.Annotations.Effect == ir.EffectRead && t.Annotations.Confirmation != ir.ConfirmAlways
}
