package kotlin

import (
	"fmt"
	"math"
	"strings"

	"github.com/cetpgen/cetpgen/gen/internal/par"
	"github.com/cetpgen/cetpgen/gen/ir"
	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// common is what every template's view starts with.
type common struct {
	Header  string
	Package string
	Names   providerNames
}

// common returns the shared part of every view.
func (m *model) common() common {
	return common{Header: header(m.p.File), Package: kotlinPackage(m.p.Targets.KotlinPackage), Names: m.names}
}

// schemasView is the view of schemas.kt.tmpl.
type schemasView struct {
	common
	Tools []schemaView
}

// schemaView is one tool's schema holder: the arguments of the parse
// call of its input and output schemas' canonical JSON.
type schemaView struct {
	Object, Name  string
	Input, Output string
}

// schemasView builds the view of the schemas file.
func (m *model) schemasView() schemasView {
	v := schemasView{common: m.common(), Tools: make([]schemaView, len(m.tools))}
	par.Each(len(m.tools), func(i int) {
		t := m.tools[i]
		v.Tools[i] = schemaView{Object: t.names.Object, Name: t.t.Name,
			Input: stringChunks(string(t.t.Input.JSON)), Output: stringChunks(string(t.t.Output.JSON))}
	})
	return v
}

// supportView is the view of support.kt.tmpl and service.kt.tmpl.
type supportView struct {
	common
	Doc string
}

// supportView builds the view of the support file.
func (m *model) supportView() supportView { return supportView{common: m.common()} }

// serviceView builds the view of the discovery service file.
func (m *model) serviceView() supportView {
	doc := fmt.Sprintf("%s is the discovery Service of the CETP Provider %s: ClawSeed finds the Provider through its intent filter and meta-data (see the generated manifest fragment). It binds nothing.", m.names.Service, m.p.ID)
	return supportView{common: m.common(), Doc: kdoc("", doc)}
}

// skeletonView builds the view of the user-owned subclass skeleton.
func (m *model) skeletonView() baseView {
	v := m.base()
	v.Header = "// " + lineComment(fmt.Sprintf("Generated once by cetpgen from %s. This file is yours to edit: cetpgen never overwrites it.", m.p.File))
	return v
}

// baseView is the view of base.kt.tmpl (and of the skeleton).
type baseView struct {
	common
	durableView
	Doc          string
	ProviderID   string
	ProviderName string
	Description  string
	Scopes       []scopeView
	Capabilities string
	Limits       limitsView
	Tools        []toolView
	Writes       bool
	// Reads is whether any tool is read-only (its dispatch catches).
	Reads     bool
	HasAlways bool
	HasPolicy bool
	DualStack bool
	V1Tools   string
}

// scopeView is one ProviderScope's literals.
type scopeView struct {
	Name, Description, Title, Access, Sensitivity string
}

// limitsView holds the CetpLimits arguments as Kotlin literals.
type limitsView struct {
	MaxRequestBytes, MaxInlineResultBytes, MaxConcurrentRequests, IdempotencyWindowSeconds string
}

// toolView is one tool's descriptor literals and dispatch expressions.
type toolView struct {
	toolNames
	Name, Title, Description      string
	Doc                           string
	Scopes                        string
	Effect, Risk, Confirmation    string
	Execution                     string
	Destructive, Idempotent, Open bool
	// Catches is whether the dispatch turns the method's exception into
	// INTERNAL_ERROR: read tools only, so that a state-changing method's
	// exception reaches the mutationExecutor, which rolls it back.
	Catches                   bool
	InputType, OutputType     string
	DecodeInput, EncodeOutput string
	TodoMessage               string
}

// baseView builds the view of the base class.
func (m *model) baseView() baseView {
	p := m.p
	v := baseView{
		common: m.common(), ProviderID: kotlinString(p.ID), ProviderName: kotlinString(p.Name),
		Description: kotlinString(p.Description), Capabilities: capabilities(p),
		Limits: limits(p.Limits), Writes: m.writes(), HasAlways: m.hasConfirmation(protocol.ConfirmAlways),
		HasPolicy: m.hasConfirmation(protocol.ConfirmProviderPolicy), DualStack: p.DualStack(),
		durableView: m.durableView(),
	}
	v.Doc = kdoc("", fmt.Sprintf("%s is the generated CETP v2 Provider %s (%s), served at the authority %s.\n\n%s",
		m.names.Base, p.Name, p.ID, p.Android.Authority, p.Description))
	v.Scopes = scopeViews(p)
	v.Tools = make([]toolView, len(m.tools))
	par.Each(len(m.tools), func(i int) { v.Tools[i] = m.toolView(m.tools[i]) })
	var v1 []string
	for _, t := range m.tools {
		v.Reads = v.Reads || !t.t.Annotations.Effect.Writes()
		if m.v1Served(t.t) {
			v1 = append(v1, kotlinString(t.t.Name))
		}
	}
	v.V1Tools = "setOf<String>(" + strings.Join(v1, ", ") + ")"
	return v
}

// scopeViews returns the literals of the Provider's scopes.
func scopeViews(p *ir.Provider) []scopeView {
	var out []scopeView
	for _, s := range p.Scopes {
		out = append(out, scopeView{Name: kotlinString(s.Name), Description: kotlinString(s.Description),
			Title: kotlinString(s.Title), Access: strings.ToUpper(string(s.Access)), Sensitivity: strings.ToUpper(string(s.Sensitivity))})
	}
	return out
}

// toolView builds one tool's view.
func (m *model) toolView(t *toolModel) toolView {
	a := t.t.Annotations
	c := codec{J: m.names.J}
	var scopes []string
	for _, s := range t.t.Scopes {
		scopes = append(scopes, kotlinString(s.Name))
	}
	doc := fmt.Sprintf("%s runs the tool %s: %s.\n\n%s\n\nEffect %s, risk %s, confirmation %s, execution %s; scopes: %s.",
		strings.Trim(t.names.Method, "`"), t.t.Name, t.t.Title, t.t.Description, a.Effect, a.Risk, a.Confirmation, a.Execution, scopeNames(t.t))
	return toolView{
		toolNames: t.names, Name: kotlinString(t.t.Name), Title: kotlinString(t.t.Title),
		Description: kotlinString(t.t.Description), Doc: kdoc("    ", doc),
		Scopes: "listOf<String>(" + strings.Join(scopes, ", ") + ")",
		Effect: strings.ToUpper(string(a.Effect)), Risk: strings.ToUpper(string(a.Risk)), Catches: !a.Effect.Writes(),
		Confirmation: strings.ToUpper(string(a.Confirmation)), Execution: strings.ToUpper(string(a.Execution)),
		Destructive: a.Destructive, Idempotent: a.Idempotent, Open: a.OpenWorld,
		InputType: c.typeName(t.input), OutputType: c.typeName(t.output),
		DecodeInput:  t.names.Object + ".decodeInput(request.args)",
		EncodeOutput: t.names.Object + ".encodeOutput(reply.output)",
		TodoMessage:  kotlinString("implement the tool " + t.t.Name),
	}
}

// scopeNames lists a tool's scope names for documentation.
func scopeNames(t *ir.Tool) string {
	var out []string
	for _, s := range t.Scopes {
		out = append(out, s.Name)
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}

// capabilities returns the descriptor's capability set literal.
func capabilities(p *ir.Provider) string {
	var out []string
	for _, c := range p.Capabilities {
		out = append(out, kotlinString(string(c)))
	}
	return "setOf<String>(" + strings.Join(out, ", ") + ")"
}

// limits returns the CetpLimits literals; Int fields saturate at Int.MAX_VALUE.
func limits(l ir.Limits) limitsView {
	return limitsView{
		MaxRequestBytes: intLiteral(l.MaxRequestBytes), MaxInlineResultBytes: intLiteral(l.MaxInlineResultBytes),
		MaxConcurrentRequests: intLiteral(l.MaxConcurrentRequests), IdempotencyWindowSeconds: fmt.Sprintf("%dL", l.IdempotencyWindowSeconds),
	}
}

// intLiteral returns n as a Kotlin Int literal, saturated to the Int range.
func intLiteral(n int64) string {
	if n > math.MaxInt32 {
		return "Int.MAX_VALUE"
	}
	return fmt.Sprint(n)
}
