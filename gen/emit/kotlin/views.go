package kotlin

import (
	"fmt"
	"math"
	"strings"

	"github.com/cetpgen/cetpgen/gen/ir"
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

// typesView is the view of types.kt.tmpl.
type typesView struct {
	common
	Tools []toolTypesView
}

// toolTypesView is one tool's object of types.
type toolTypesView struct {
	Object string
	Doc    string
	// Roots are the input and output conversions.
	Roots   []rootView
	Classes []classView
	Enums   []enumView
	Unions  []unionView
}

// unionView is one sealed interface and its variants.
type unionView struct {
	J             string
	Name          string
	Doc           string
	Discriminator string
	Variants      []variantView
}

// variantView is one variant's discriminator literal and class.
type variantView struct {
	Value string
	Class string
}

// classView is one data class.
type classView struct {
	J      string
	Name   string
	Doc    string
	Props  []propView
	Closed bool
	Known  string
	// Extra names the property keeping undeclared members, empty if none.
	Extra string
	// Implements is the supertype clause (" : A, B"), empty for none.
	Implements string
}

// propView is one property: declaration, conversion from and to JSON.
type propView struct {
	Name   string
	Decl   string
	Doc    string
	Decode string
	Encode string
}

// enumView is one enum class.
type enumView struct {
	J      string
	Name   string
	Doc    string
	Values []enumValueView
}

// enumValueView is one constant with its wire literal.
type enumValueView struct {
	Const string
	Wire  string
	Last  bool
}

// typesView builds the view of the types file.
func (m *model) typesView() typesView {
	v := typesView{common: m.common()}
	for _, t := range m.tools {
		v.Tools = append(v.Tools, m.toolTypesView(t))
	}
	return v
}

// toolTypesView builds one tool's object.
func (m *model) toolTypesView(t *toolModel) toolTypesView {
	doc := fmt.Sprintf("%s holds the input and output types of the tool %s (%s).", t.names.Object, t.t.Name, t.t.Title)
	v := toolTypesView{Object: t.names.Object, Doc: kdoc("", doc)}
	c := codec{J: m.names.J}
	v.Roots = []rootView{rootViewOf(c, "Input", "input", t.types.Input), rootViewOf(c, "Output", "output", t.types.Output)}
	for _, cl := range t.types.Classes {
		v.Classes = append(v.Classes, m.classView(c, cl))
	}
	for _, e := range t.types.Enums {
		v.Enums = append(v.Enums, enumViewOf(m.names.J, e))
	}
	for _, u := range t.types.Unions {
		v.Unions = append(v.Unions, unionViewOf(c, u))
	}
	return v
}

// rootView is the decode and encode function pair of a tool's input or
// output, whatever Kotlin type the root schema maps to.
type rootView struct {
	Suffix string
	Label  string
	Type   string
	Decode string
	Encode string
}

// rootViewOf builds the conversions of one root.
func rootViewOf(c codec, suffix, label string, t *ktype) rootView {
	return rootView{Suffix: suffix, Label: label, Type: c.typeName(t),
		Decode: c.decode(t, "element", "path", 0), Encode: c.encode(t, "value", 0)}
}

// classView builds one data class's view.
func (m *model) classView(c codec, cl *class) classView {
	doc := cl.Doc
	if doc == "" {
		doc = cl.Name + " is a generated JSON object type."
	}
	v := classView{J: c.J, Name: cl.Name, Doc: kdoc("    ", doc), Closed: cl.Closed, Extra: cl.Extra}
	if len(cl.Implements) > 0 {
		v.Implements = " : " + strings.Join(cl.Implements, ", ")
	}
	var known []string
	for _, p := range cl.Props {
		v.Props = append(v.Props, m.propView(c, p))
		known = append(known, kotlinString(p.Wire))
	}
	v.Known = "setOf(" + strings.Join(known, ", ") + ")"
	return v
}

// propView builds one property's declaration and conversions: a required
// property is always written, an optional one only when set, and an
// optional nullable one keeps absent and null apart.
func (m *model) propView(c codec, p *prop) propView {
	v := propView{Name: p.Name}
	if p.Doc != "" {
		v.Doc = kdoc("        ", p.Doc)
	}
	w := kotlinString(p.Wire)
	at := fmt.Sprintf("%s.at(path, %s)", c.J, w)
	switch {
	case p.Required:
		v.Decl, v.Decode, v.Encode = requiredProp(c, p, w, at)
	case p.Type.nullable:
		v.Decl, v.Decode, v.Encode = optionalNullableProp(c, m.names.Optional, p, w, at)
	default:
		v.Decl = strings.TrimSuffix(c.typeName(p.Type), "?") + "? = null"
		v.Decode = fmt.Sprintf("obj[%s]?.let { m -> %s }", w, c.decode(p.Type, "m", at, 0))
		v.Encode = fmt.Sprintf("this.%s?.let { m -> json[%s] = %s }", p.Name, w, c.encode(p.Type, "m", 0))
	}
	return v
}

// requiredProp returns a required property's declaration and conversions.
func requiredProp(c codec, p *prop, w, at string) (decl, decode, encode string) {
	decl = c.typeName(p.Type)
	decode = c.decode(p.Type, fmt.Sprintf("%s.required(obj, %s, path)", c.J, w), at, 0)
	encode = fmt.Sprintf("json[%s] = %s", w, c.encode(p.Type, "this."+p.Name, 0))
	return decl, decode, encode
}

// optionalNullableProp returns the declaration and conversions of an
// optional, nullable property, held in the Optional type opt.
func optionalNullableProp(c codec, opt string, p *prop, w, at string) (decl, decode, encode string) {
	decl = fmt.Sprintf("%s<%s> = %s.Absent", opt, c.typeName(p.Type), opt)
	decode = fmt.Sprintf("if (obj.containsKey(%s)) %s.Present(%s) else %s.Absent", w, opt, c.decode(p.Type, "obj.getValue("+w+")", at, 0), opt)
	encode = fmt.Sprintf("(this.%s as? %s.Present)?.let { m -> json[%s] = %s }", p.Name, opt, w, c.encode(p.Type, "m.value", 0))
	return decl, decode, encode
}

// unionViewOf builds one sealed interface's view.
func unionViewOf(c codec, u *union) unionView {
	doc := u.Doc
	if doc != "" {
		doc += "\n\n"
	}
	doc += fmt.Sprintf("%s is one of its variants, told apart by the property %q.", u.Name, u.Discriminator)
	v := unionView{J: c.J, Name: u.Name, Doc: kdoc("    ", doc), Discriminator: kotlinString(u.Discriminator)}
	for _, va := range u.Variants {
		v.Variants = append(v.Variants, variantView{Value: kotlinString(va.Value), Class: va.Type.class.Name})
	}
	return v
}

// enumViewOf builds one enum class's view.
func enumViewOf(j string, e *enum) enumView {
	doc := e.Doc
	if doc == "" {
		doc = e.Name + " is a generated enum of JSON string values."
	}
	v := enumView{J: j, Name: e.Name, Doc: kdoc("    ", doc)}
	for i, val := range e.Values {
		v.Values = append(v.Values, enumValueView{Const: val.Const, Wire: kotlinString(val.Wire), Last: i == len(e.Values)-1})
	}
	return v
}

// schemasView is the view of schemas.kt.tmpl.
type schemasView struct {
	common
	Schemas []schemaView
}

// schemaView is one schema val with its builder expression.
type schemaView struct {
	Name string
	Doc  string
	Expr string
}

// schemasView builds the view of the schemas file.
func (m *model) schemasView() schemasView {
	v := schemasView{common: m.common()}
	for _, t := range m.tools {
		v.Schemas = append(v.Schemas,
			schemaView{Name: t.names.InputSchema, Doc: "input_schema of " + t.t.Name, Expr: jsonLiteral(schemaValue(t.t.Input), "    ")},
			schemaView{Name: t.names.OutputSchema, Doc: "output_schema of " + t.t.Name, Expr: jsonLiteral(schemaValue(t.t.Output), "    ")})
	}
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
	v := m.baseView()
	v.Header = "// " + lineComment(fmt.Sprintf("Generated once by cetpgen from %s. This file is yours to edit: cetpgen never overwrites it.", m.p.File))
	return v
}

// baseView is the view of base.kt.tmpl (and of the skeleton).
type baseView struct {
	common
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
		Limits: limits(p.Limits), Writes: m.writes(), HasAlways: m.hasConfirmation(ir.ConfirmAlways),
		HasPolicy: m.hasConfirmation(ir.ConfirmProviderPolicy), DualStack: p.DualStack(),
	}
	v.Doc = kdoc("", fmt.Sprintf("%s is the generated CETP v2 Provider %s (%s), served at the authority %s.\n\n%s",
		m.names.Base, p.Name, p.ID, p.Android.Authority, p.Description))
	v.Scopes = scopeViews(p)
	var v1 []string
	for _, t := range m.tools {
		v.Tools = append(v.Tools, m.toolView(t))
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
	c := codec{J: m.names.J, qual: t.names.Object + "."}
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
		InputType: c.typeName(t.types.Input), OutputType: c.typeName(t.types.Output),
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
