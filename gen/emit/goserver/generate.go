package goserver

import (
	"bytes"
	"fmt"
	"go/token"
	"path"
	"path/filepath"
	"strings"

	"github.com/cetpgen/cetpgen/gen/emit"
	"github.com/cetpgen/cetpgen/gen/ir"
	"github.com/dave/jennifer/jen"
)

// Dir is the target's directory under the output root: every skeleton
// lies below it, at cmd/<slug>/ or at the spec's targets.go.server.
const Dir = "cmd"

// OwnedDir is the directory one Provider's skeleton owns under the output
// root: targets.go.server, else cmd/<slug>.
func OwnedDir(p *ir.Provider) string { return p.Targets.GoServerDir }

// Import paths the skeleton uses.
const (
	pkgContext  = "context"
	pkgProtocol = "github.com/cetpgen/cetpgen/runtime/protocol"
	pkgProvider = "github.com/cetpgen/cetpgen/runtime/provider"
	pkgServe    = "github.com/cetpgen/cetpgen/runtime/serve"
)

// Generate renders main.go in OwnedDir (cmd/<slug>/ by default) for one
// Provider whose generated Go package lies at go/<slug>/ under the output
// root root.
func Generate(p *ir.Provider, root string) ([]emit.File, error) {
	if !token.IsIdentifier(p.Targets.GoPackage) {
		return nil, fmt.Errorf("go-server: package name %q is not a Go identifier; set targets.go.package", p.Targets.GoPackage)
	}
	imp, found := importPath(root, "go/"+p.Slug)
	f := jen.NewFile("main")
	f.ImportName(imp, p.Targets.GoPackage)
	f.ImportNames(map[string]string{pkgProtocol: "protocol", pkgProvider: "provider", pkgServe: "serve"})
	renderDoc(f, p, runPath(root, OwnedDir(p)), found)
	renderMain(f, p, imp)
	renderServer(f, p, imp)
	renderNotImplemented(f)
	var b bytes.Buffer
	if err := f.Render(&b); err != nil {
		return nil, fmt.Errorf("go-server: render %s: %w", p.Slug, err)
	}
	return []emit.File{{Path: OwnedDir(p) + "/main.go", Data: b.Bytes(), UserOwned: true}}, nil
}

// runPath is the package path of the skeleton in dir (under root) for go
// run: relative to the directory cetpgen ran in when root is relative.
func runPath(root, dir string) string {
	p := filepath.ToSlash(filepath.Join(root, filepath.FromSlash(dir)))
	if filepath.IsAbs(root) || strings.HasPrefix(p, "../") {
		return p
	}
	return "./" + p
}

// serverName is the command's name: the last element of targets.go.server
// when the spec sets it (the name go build gives the binary), else the
// slug and "d".
func serverName(p *ir.Provider) string {
	if p.Targets.GoServerDir != Dir+"/"+p.Slug {
		return path.Base(p.Targets.GoServerDir)
	}
	return p.Slug + "d"
}

// renderDoc renders the package comment.
//
//	// Command notesd serves Notes (provider_id com.example.notes) …
//	package main
func renderDoc(f *jen.File, p *ir.Provider, run string, found bool) {
	lines := []string{
		fmt.Sprintf("Command %s serves %s (provider_id %s) over the CETP v2 Unix-socket binding,", serverName(p), oneLine(p.Name), p.ID),
		"with the generated package go/" + p.Slug + " and runtime/serve.",
		"",
		"cetpgen wrote this file once, from " + p.File + ", and never overwrites it: it is yours.",
		"Fill in the methods of server; until then each tool answers INTERNAL_ERROR",
		"\"... is not implemented yet\". After a change of the spec, cetpgen generate",
		"updates go/" + p.Slug + " and the compiler lists the methods to add or change here.",
		"",
		"Run it (flags: " + serverName(p) + " --help):",
		"",
		"\tgo run " + run + " --socket /tmp/" + p.Slug + ".sock --db " + p.Slug + ".db",
	}
	if !found {
		lines = append(lines, "", "cetpgen found no go.mod above the output directory: replace "+PlaceholderModule,
			"in the import below with the path of the module that holds it.")
	}
	for _, l := range lines {
		f.PackageComment(strings.TrimRight(l, " "))
	}
}

// renderMain renders main.
//
//	func main() {
//		serve.Main(serve.Server{Name: "notesd", Descriptor: notes.Descriptor(),
//			Tools: func(env serve.Env) ([]provider.Tool, error) { return notes.Tools(&server{}), nil }})
//	}
func renderMain(f *jen.File, p *ir.Provider, imp string) {
	f.Func().Id("main").Params().Block(
		jen.Qual(pkgServe, "Main").Call(jen.Qual(pkgServe, "Server").Values(jen.Dict{
			jen.Id("Name"):       jen.Lit(serverName(p)),
			jen.Id("Descriptor"): jen.Qual(imp, "Descriptor").Call(),
			jen.Id("Tools"): jen.Func().Params(jen.Id("env").Qual(pkgServe, "Env")).
				Params(jen.Index().Qual(pkgProvider, "Tool"), jen.Error()).Block(
				jen.Comment("env.Store is the open store (a *sqlitestore.Store or *pgstore.Store, whose DB()"),
				jen.Comment("can hold tables of your own); env.Log is the server's logger."),
				jen.Return(jen.Qual(imp, "Tools").Call(jen.Op("&").Id("server").Values()), jen.Nil()),
			),
		})),
	)
}

// renderServer renders the server type and one method per tool.
//
//	type server struct{}
//
//	var _ notes.Handler = (*server)(nil)
//
//	func (s *server) GetStatus(ctx context.Context, call *provider.Call, in notes.GetStatusInput) (notes.GetStatusOutput, error) {
//		return notes.GetStatusOutput{}, notImplemented("get_status")
//	}
func renderServer(f *jen.File, p *ir.Provider, imp string) {
	f.Comment("server implements " + p.Targets.GoPackage + ".Handler: one method per tool. Writes go through call.Tx")
	f.Comment("(they commit with the runtime's deduplication record); return a *protocol.Error")
	f.Comment("to choose the code the Consumer sees.")
	f.Type().Id("server").Struct()
	f.Var().Id("_").Qual(imp, "Handler").Op("=").Parens(jen.Op("*").Id("server")).Parens(jen.Nil())
	for _, t := range p.Tools {
		in, out := rootName(t.Input), rootName(t.Output)
		f.Line()
		f.Comment(fmt.Sprintf("%s runs %s: %s", t.Names.GoMethod, t.Name, oneLine(t.Title)))
		f.Comment(fmt.Sprintf("(effect %s, risk %s, confirmation %s).", t.Annotations.Effect, t.Annotations.Risk, t.Annotations.Confirmation))
		f.Func().Params(jen.Id("s").Op("*").Id("server")).Id(t.Names.GoMethod).Params(
			jen.Id("ctx").Qual(pkgContext, "Context"), jen.Id("call").Op("*").Qual(pkgProvider, "Call"), jen.Id("in").Qual(imp, in),
		).Params(jen.Qual(imp, out), jen.Error()).Block(
			jen.Return(jen.Qual(imp, out).Values(), jen.Id("notImplemented").Call(jen.Lit(t.Name))),
		)
	}
}

// renderNotImplemented renders the error of a method not written yet.
//
//	func notImplemented(tool string) error {
//		return protocol.NewError(protocol.CodeInternalError, "%s is not implemented yet", tool)
//	}
func renderNotImplemented(f *jen.File) {
	f.Line()
	f.Comment("notImplemented is the answer of a tool whose method is not written yet:")
	f.Comment("INTERNAL_ERROR, not retryable, saying so.")
	f.Func().Id("notImplemented").Params(jen.Id("tool").String()).Error().Block(
		jen.Return(jen.Qual(pkgProtocol, "NewError").Call(jen.Qual(pkgProtocol, "CodeInternalError"),
			jen.Lit("%s is not implemented yet"), jen.Id("tool"))),
	)
}

// rootName is the Go type of a tool schema's root.
func rootName(s *ir.Schema) string {
	if s == nil || s.Graph == nil || s.Graph.Root == nil {
		return ""
	}
	return s.Graph.Root.GoName
}

// oneLine is the first line of s, trimmed, safe inside a comment.
func oneLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return strings.ReplaceAll(strings.TrimSpace(s), "*/", "* /")
}
