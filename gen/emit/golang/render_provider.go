package golang

import (
	"slices"
	"strings"

	"github.com/cetpgen/cetpgen/gen/ir"
	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/dave/jennifer/jen"
)

// toolNames are the Go names derived from one tool.
type toolNames struct {
	tool                *ir.Tool
	method, in, out     string
	inSchema, outSchema string // unexported constants
}

// renderHandler renders the Handler interface.
//
//	type Handler interface {
//		CreateAlert(ctx context.Context, call *provider.Call, in CreateAlertInput) (CreateAlertOutput, error)
//	}
func renderHandler(f *jen.File, p *ir.Provider, tools []toolNames) {
	var methods []jen.Code
	for _, t := range tools {
		methods = append(methods, toolDoc(t, "runs").code()...)
		methods = append(methods, jen.Id(t.method).Params(
			jen.Id("ctx").Qual(pkgContext, "Context"), jen.Id("call").Op("*").Qual(pkgProvider, "Call"), jen.Id("in").Id(t.in),
		).Params(jen.Id(t.out), jen.Error()))
	}
	var doc docLines
	doc.para("Handler implements the tools of " + p.Name + ", one typed method per tool. The runtime has already checked the caller's session, the arguments against the input schema, the scopes, deduplication and confirmation before a method runs, and checks the result against the output schema after it returns. Return a *protocol.Error to choose the error code the Consumer sees; any other error becomes INTERNAL_ERROR.")
	add(f, doc.code())
	f.Type().Id("Handler").Interface(methods...)
}

// toolDoc is the doc comment of a tool's method.
func toolDoc(t toolNames, verb string) docLines {
	var d docLines
	d.para(t.method + " " + verb + " the tool " + t.tool.Name + ": " + t.tool.Title + ".")
	d.para(t.tool.Description)
	return d
}

// add appends rendered code to the file.
func add(f *jen.File, codes []jen.Code) {
	for _, c := range codes {
		f.Add(c)
	}
}

// renderDescriptor renders Descriptor.
//
//	func Descriptor() provider.Descriptor {
//		return provider.Descriptor{ID: "com.example.app", ..., Revision: Revision}
//	}
func renderDescriptor(f *jen.File, p *ir.Provider) {
	var scopes []jen.Code
	for _, s := range p.Scopes {
		scopes = append(scopes, jen.Values(jen.Dict{
			jen.Id("Name"): jen.Lit(s.Name), jen.Id("Title"): jen.Lit(s.Title), jen.Id("Description"): jen.Lit(s.Description),
			jen.Id("Access"): qualConst("access", string(s.Access)), jen.Id("Sensitivity"): qualConst("sensitivity", string(s.Sensitivity)),
		}))
	}
	f.Comment("// Descriptor returns the identity, scopes, versions, capabilities, limits and tool-set revision of " + oneLine(p.Name) + ".")
	f.Func().Id("Descriptor").Params().Qual(pkgProvider, "Descriptor").Block(jen.Return(jen.Qual(pkgProvider, "Descriptor").Values(jen.Dict{
		jen.Id("ID"): jen.Lit(p.ID), jen.Id("Name"): jen.Lit(p.Name), jen.Id("Description"): jen.Lit(p.Description),
		jen.Id("Scopes"):       jen.Index().Qual(pkgProvider, "Scope").Values(scopes...),
		jen.Id("Versions"):     jen.Index().Int().Values(ints(p.Versions)...),
		jen.Id("Capabilities"): jen.Index().String().Values(caps(p.Capabilities)...),
		jen.Id("Limits"):       limits(p.Limits),
		jen.Id("Revision"):     jen.Id("Revision"),
	})))
}

// oneLine is the first comment-safe line of s.
func oneLine(s string) string { return commentLines(s)[0] }

// ints renders integer literals.
func ints(v []int) []jen.Code {
	var out []jen.Code
	for _, i := range v {
		out = append(out, jen.Lit(i))
	}
	return out
}

// caps renders capability names as string literals.
func caps(v []protocol.Capability) []jen.Code {
	var out []jen.Code
	for _, c := range v {
		out = append(out, jen.Lit(string(c)))
	}
	return out
}

// limits renders provider.Limits{MaxRequestBytes: 65536, ...}.
func limits(l ir.Limits) jen.Code {
	return jen.Qual(pkgProvider, "Limits").Values(jen.Dict{
		jen.Id("MaxRequestBytes"):          jen.Lit(int(l.MaxRequestBytes)),
		jen.Id("MaxInlineResultBytes"):     jen.Lit(int(l.MaxInlineResultBytes)),
		jen.Id("MaxConcurrentRequests"):    jen.Lit(int(l.MaxConcurrentRequests)),
		jen.Id("IdempotencyWindowSeconds"): jen.Lit(l.IdempotencyWindowSeconds),
	})
}

// qualConst renders the runtime's constant for the value of a vocabulary
// field (provider.EffectCreate: the prefix of protocol.Vocabularies and
// the value in PascalCase), or a conversion (provider.Effect("x")) for a
// value the vocabulary does not list.
func qualConst(field, value string) jen.Code {
	for _, v := range vocabularies {
		if v.Field != field {
			continue
		}
		if slices.Contains(v.Values, value) {
			return jen.Qual(pkgProvider, v.GoPrefix+pascalWords(value))
		}
		return jen.Qual(pkgProvider, v.GoType).Call(jen.Lit(value))
	}
	panic("qualConst: " + field + " is not a vocabulary field")
}

// vocabularies are the protocol's vocabularies, built once.
var vocabularies = protocol.Vocabularies()

// pascalWords joins the underscore-separated words of a vocabulary
// value capitalized ("sync_or_async" -> "SyncOrAsync").
func pascalWords(s string) string {
	var b strings.Builder
	for _, w := range strings.Split(s, "_") {
		if w != "" {
			b.WriteString(strings.ToUpper(w[:1]) + w[1:])
		}
	}
	return b.String()
}

// renderTools renders Tools, the registrations with typed adapters.
//
//	func Tools(h Handler) []provider.Tool {
//		return []provider.Tool{{Name: "create_alert", ..., Handler: adapt(h.CreateAlert)}}
//	}
func renderTools(f *jen.File, p *ir.Provider, tools []toolNames) {
	var regs []jen.Code
	for _, t := range tools {
		regs = append(regs, toolValue(t))
	}
	f.Comment("// Tools returns the tool registrations of " + oneLine(p.Name) + ": each tool's schemas exactly as")
	f.Comment("// generated, its scopes and annotations, and an adapter that calls h with typed values.")
	f.Func().Id("Tools").Params(jen.Id("h").Id("Handler")).Index().Qual(pkgProvider, "Tool").Block(
		jen.Return(jen.Index().Qual(pkgProvider, "Tool").Values(regs...)))
}

// toolValue renders one provider.Tool literal.
func toolValue(t toolNames) jen.Code {
	a := t.tool.Annotations
	var scopes []jen.Code
	for _, s := range t.tool.Scopes {
		scopes = append(scopes, jen.Lit(s.Name))
	}
	return jen.Values(jen.Dict{
		jen.Id("Name"): jen.Lit(t.tool.Name), jen.Id("Title"): jen.Lit(t.tool.Title), jen.Id("Description"): jen.Lit(t.tool.Description),
		jen.Id("InputSchema"):  jen.Qual(pkgJSON, "RawMessage").Call(jen.Id(t.inSchema)),
		jen.Id("OutputSchema"): jen.Qual(pkgJSON, "RawMessage").Call(jen.Id(t.outSchema)),
		jen.Id("Scopes"):       jen.Index().String().Values(scopes...),
		jen.Id("Annotations"): jen.Qual(pkgProvider, "Annotations").Values(jen.Dict{
			jen.Id("Effect"): qualConst("effect", string(a.Effect)), jen.Id("Risk"): qualConst("risk", string(a.Risk)),
			jen.Id("Destructive"): jen.Lit(a.Destructive), jen.Id("Idempotent"): jen.Lit(a.Idempotent), jen.Id("OpenWorld"): jen.Lit(a.OpenWorld),
			jen.Id("Confirmation"): qualConst("confirmation", string(a.Confirmation)), jen.Id("Execution"): qualConst("execution", string(a.Execution)),
		}),
		jen.Id("Handler"): jen.Id("adapt").Call(jen.Id("h").Dot(t.method)),
	})
}

// renderSchema renders the canonical schema JSON of a tool, input or
// output, as a string constant, byte for byte as the IR holds it. Each
// constant is its own declaration: a grouped block would make gofmt align
// the whole block, which costs more than the rest of the file.
//
//	// createAlertInputSchema is the input schema of create_alert, in canonical JSON.
//	const createAlertInputSchema = "{\"additionalProperties\":false,...}"
func renderSchema(f *jen.File, name, which string, t toolNames, schema *ir.Schema) {
	f.Comment("// " + name + " is the " + which + " schema of " + t.tool.Name + ", in canonical JSON.")
	f.Const().Id(name).Op("=").Lit(string(schema.JSON))
}

// renderNew renders New and the adapter.
//
//	func New(h Handler, opt provider.Options) (*provider.Provider, error) {
//		return provider.New(Descriptor(), Tools(h), opt)
//	}
func renderNew(f *jen.File, p *ir.Provider) {
	f.Comment("// New builds the runtime Provider engine of " + oneLine(p.Name) + " with its tools served by h.")
	f.Func().Id("New").Params(jen.Id("h").Id("Handler"), jen.Id("opt").Qual(pkgProvider, "Options")).Params(jen.Op("*").Qual(pkgProvider, "Provider"), jen.Error()).Block(
		jen.Return(jen.Qual(pkgProvider, "New").Call(jen.Id("Descriptor").Call(), jen.Id("Tools").Call(jen.Id("h")), jen.Id("opt"))))
	renderAdapt(f)
}

// renderAdapt renders the generic adapter from a typed method to a
// provider.Handler.
//
//	func adapt[In, Out any](m func(context.Context, *provider.Call, In) (Out, error)) provider.Handler {
//		return func(ctx context.Context, call *provider.Call, args json.RawMessage) (json.RawMessage, error) {
//			var in In
//			if err := json.Unmarshal(args, &in); err != nil {
//				return nil, protocol.NewError(protocol.CodeInvalidArgs, "arguments do not fit the input type")
//			}
//			out, err := m(ctx, call, in)
//			if err != nil {
//				return nil, err
//			}
//			return json.Marshal(out)
//		}
//	}
func renderAdapt(f *jen.File) {
	ctx, call := jen.Qual(pkgContext, "Context"), jen.Op("*").Qual(pkgProvider, "Call")
	f.Comment("// adapt turns a typed Handler method into a provider.Handler: it decodes the schema-valid")
	f.Comment("// arguments into the input type and encodes the result.")
	f.Func().Id("adapt").Types(jen.List(jen.Id("In"), jen.Id("Out")).Any()).Params(
		jen.Id("m").Func().Params(ctx, call, jen.Id("In")).Params(jen.Id("Out"), jen.Error()),
	).Qual(pkgProvider, "Handler").Block(jen.Return(jen.Func().Params(
		jen.Id("ctx").Add(ctx), jen.Id("call").Add(call), jen.Id("args").Qual(pkgJSON, "RawMessage"),
	).Params(jen.Qual(pkgJSON, "RawMessage"), jen.Error()).Block(
		jen.Var().Id("in").Id("In"),
		jen.If(jen.Err().Op(":=").Qual(pkgJSON, "Unmarshal").Call(jen.Id("args"), jen.Op("&").Id("in")), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Nil(), jen.Qual(pkgProtocol, "NewError").Call(jen.Qual(pkgProtocol, "CodeInvalidArgs"), jen.Lit("arguments do not fit the input type")))),
		jen.List(jen.Id("out"), jen.Err()).Op(":=").Id("m").Call(jen.Id("ctx"), jen.Id("call"), jen.Id("in")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Return(jen.Qual(pkgJSON, "Marshal").Call(jen.Id("out"))),
	)))
}

// renderClient renders the typed Client and its constructor.
//
//	type Client struct{ C *consumer.Client }
//
//	func NewClient(c *consumer.Client) *Client { return &Client{C: c} }
func renderClient(f *jen.File, p *ir.Provider) {
	f.Comment("// Client calls the tools of " + oneLine(p.Name) + " through a CETP v2 Consumer client.")
	f.Type().Id("Client").Struct(jen.Comment("// C carries the calls."), jen.Id("C").Op("*").Qual(pkgConsumer, "Client"))
	f.Comment("// NewClient returns a Client that calls through c.")
	f.Func().Id("NewClient").Params(jen.Id("c").Op("*").Qual(pkgConsumer, "Client")).Op("*").Id("Client").Block(
		jen.Return(jen.Op("&").Id("Client").Values(jen.Dict{jen.Id("C"): jen.Id("c")})))
}

// renderClientMethod renders the Client's method of one tool.
//
//	func (c *Client) CreateAlert(ctx context.Context, in CreateAlertInput) (CreateAlertOutput, error) {
//		return consumer.Invoke[CreateAlertOutput](ctx, c.C, "create_alert", in)
//	}
func renderClientMethod(f *jen.File, t toolNames) {
	add(f, toolDoc(t, "calls").code())
	f.Func().Params(jen.Id("c").Op("*").Id("Client")).Id(t.method).Params(
		jen.Id("ctx").Qual(pkgContext, "Context"), jen.Id("in").Id(t.in),
	).Params(jen.Id(t.out), jen.Error()).Block(jen.Return(
		jen.Qual(pkgConsumer, "Invoke").Types(jen.Id(t.out)).Call(jen.Id("ctx"), jen.Id("c").Dot("C"), jen.Lit(t.tool.Name), jen.Id("in"))))
}
