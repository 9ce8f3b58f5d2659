package ir

import (
	"errors"
	"fmt"
	"go/token"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/cetpgen/cetpgen/gen/internal/par"
	"github.com/cetpgen/cetpgen/gen/spec"
	"github.com/cetpgen/cetpgen/gen/validate"
	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// Build resolves a validated spec into its IR. It fails only on internal
// inconsistencies; every user error was reported by package validate. The
// tools are built on GOMAXPROCS workers, each independently of the
// others, so the result does not depend on scheduling.
func Build(v *validate.Spec) (*Provider, error) {
	p, err := buildProvider(v.Set, v.Provider)
	if err != nil {
		return nil, err
	}
	tools := make([]*Tool, len(v.Tools))
	errs := make([]error, len(v.Tools))
	par.Each(len(v.Tools), func(i int) {
		var data validate.ToolJSON
		if i < len(v.JSON) {
			data = v.JSON[i]
		}
		tools[i], errs[i] = buildTool(p, v.Set.Tools[i], v.Tools[i], data)
	})
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	p.Tools = tools
	sort.Slice(p.Tools, func(i, j int) bool { return p.Tools[i].Name < p.Tools[j].Name })
	nameProvider(p)
	if p.Revision, err = revision(p.Tools); err != nil {
		return nil, fmt.Errorf("ir %s: revision: %w", p.Dir, err)
	}
	return p, nil
}

func buildProvider(set *spec.Set, w *spec.Provider) (*Provider, error) {
	doc := set.Provider
	p := &Provider{
		Slug: Slug(set.Dir), Dir: set.Dir, File: doc.Path,
		ID: w.Provider.ID, Name: w.Provider.Name, Description: w.Provider.Description,
		Android:  Android{Package: w.Android.Package, Authority: w.Android.Authority},
		Versions: versions(w.Versions),
		Limits:   buildLimits(w.Limits),
		pos:      doc.Pos,
	}
	for _, c := range w.Capabilities {
		p.Capabilities = append(p.Capabilities, protocol.Capability(c))
	}
	slices.Sort(p.Capabilities)
	for i, s := range w.Scopes {
		p.Scopes = append(p.Scopes, &Scope{
			Name: s.Name, Title: s.Title, Description: s.Description,
			Access: s.Access, Sensitivity: s.Sensitivity,
			Pos: doc.Pos(spec.Pointer("scopes", fmt.Sprint(i))),
		})
	}
	sort.Slice(p.Scopes, func(i, j int) bool { return p.Scopes[i].Name < p.Scopes[j].Name })
	p.Targets = buildTargets(p.Slug, w)
	p.CLIProduct = p.Slug
	if w.CLI != nil && w.CLI.Product != "" {
		p.CLIProduct = w.CLI.Product
	}
	return p, nil
}

func buildLimits(w *spec.Limits) Limits {
	if w == nil {
		return Limits{MinRequestBytes, MinInlineResultBytes, MinConcurrentRequests, MinIdempotencyWindowSecs}
	}
	return Limits{
		MaxRequestBytes:          int64(w.MaxRequestBytes),
		MaxInlineResultBytes:     int64(w.MaxInlineResultBytes),
		MaxConcurrentRequests:    int64(w.MaxConcurrentRequests),
		IdempotencyWindowSeconds: int64(w.IdempotencyWindowSeconds),
	}
}

// buildTargets resolves target names: the spec's own, else defaults derived
// from the slug and the Android package.
func buildTargets(slug string, w *spec.Provider) Targets {
	t := Targets{
		GoPackage:     goPackage(slug),
		GoServerDir:   "cmd/" + slug,
		KotlinPackage: w.Android.Package + ".cetp",
		KotlinClass:   pascal(slug) + "ToolProvider",
	}
	if w.Targets != nil && w.Targets.Go != nil {
		g := w.Targets.Go
		t.GoPackage = cmpOr(g.Package, t.GoPackage)
		t.GoServerDir = cmpOr(g.Server, t.GoServerDir)
	}
	if w.Targets != nil && w.Targets.Kotlin != nil {
		k := w.Targets.Kotlin
		t.KotlinPackage = cmpOr(k.Package, t.KotlinPackage)
		t.KotlinClass = cmpOr(k.Class, t.KotlinClass)
	}
	t.KotlinService = t.KotlinClass + "DiscoveryService"
	return t
}

// buildTool builds one tool; data holds its schemas' canonical JSON where
// package validate computed it.
func buildTool(p *Provider, doc *spec.Doc, w *spec.Tool, data validate.ToolJSON) (*Tool, error) {
	t := &Tool{
		Name: w.Name, Title: w.Title, Description: w.Description, File: doc.Path,
		Annotations: Annotations{
			Effect: w.Annotations.Effect, Risk: w.Annotations.Risk,
			Destructive: w.Annotations.Destructive, Idempotent: w.Annotations.Idempotent,
			OpenWorld: w.Annotations.OpenWorld, Confirmation: w.Annotations.Confirmation,
			Execution: w.Annotations.Execution,
		},
		CLI: buildCLI(w.CLI),
		pos: doc.Pos,
	}
	t.CLIPath = validate.DefaultCLIPath(p.CLIProduct, w.Name)
	if t.CLI != nil && t.CLI.Path != "" {
		t.CLIPath = t.CLI.Path
	}
	var err error
	if t.Input, err = buildSchema(doc, "/input_schema", w.InputSchema, data.Input); err != nil {
		return nil, err
	}
	if t.Output, err = buildSchema(doc, "/output_schema", w.OutputSchema, data.Output); err != nil {
		return nil, err
	}
	t.Input.Graph = BuildGraph(w.InputSchema, w.Name, "input")
	t.Output.Graph = BuildGraph(w.OutputSchema, w.Name, "output")
	for _, name := range slices.Sorted(slices.Values(w.Scopes)) {
		s := p.Scope(name)
		if s == nil {
			return nil, fmt.Errorf("ir %s: scope %q is not declared", doc.Path, name)
		}
		t.Scopes = append(t.Scopes, s)
	}
	return t, nil
}

// buildSchema builds the schema v at ptr in doc; data is its canonical
// JSON, encoded here when nil.
func buildSchema(doc *spec.Doc, ptr string, v any, data []byte) (*Schema, error) {
	if data == nil {
		var err error
		if data, err = Canonical(v); err != nil {
			return nil, fmt.Errorf("ir %s%s: %w", doc.Path, ptr, err)
		}
	}
	return &Schema{Value: v, JSON: data, Ptr: ptr, pos: doc.Pos}, nil
}

func buildCLI(w *spec.ToolCLI) *ToolCLI {
	if w == nil {
		return nil
	}
	c := &ToolCLI{Path: w.Path, Aliases: slices.Clone(w.Aliases)}
	if s := w.Selection; s != nil {
		c.Summary, c.UseWhen, c.AvoidWhen, c.Examples = s.Summary, slices.Clone(s.UseWhen), slices.Clone(s.AvoidWhen), slices.Clone(s.Examples)
	}
	return c
}

// Slug reduces a spec directory's base name to lowercase letters, digits
// and hyphens ("My Specs_2" -> "my-specs-2"); see spec.Slug.
func Slug(dir string) string { return spec.Slug(dir) }

// goPackage makes a Go package name from a slug: letters and digits only,
// starting with a letter, never a Go keyword ("type" -> "typepkg").
func goPackage(slug string) string {
	s := strings.ReplaceAll(slug, "-", "")
	if s == "" || !unicode.IsLetter(rune(s[0])) {
		s = "p" + s
	}
	if token.IsKeyword(s) {
		s += "pkg"
	}
	return s
}

// pascal turns a slug into PascalCase ("price-alerts" -> "PriceAlerts").
func pascal(slug string) string {
	var b strings.Builder
	for _, part := range strings.Split(slug, "-") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	s := b.String()
	if s == "" || !unicode.IsLetter(rune(s[0])) {
		s = "P" + s
	}
	return s
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func versions(w []spec.Int) []int {
	out := make([]int, len(w))
	for i, v := range w {
		out[i] = int(v)
	}
	slices.Sort(out)
	return out
}
