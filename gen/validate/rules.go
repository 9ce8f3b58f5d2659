package validate

import (
	"go/token"
	"slices"
	"strings"

	"github.com/cetpgen/cetpgen/gen/diag"
	"github.com/cetpgen/cetpgen/gen/internal/par"
	"github.com/cetpgen/cetpgen/gen/spec"
	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// providerRules checks the CETP v2 rules that concern provider.yaml alone.
// Each rule runs only where provider.yaml kept to its meta-schema.
func providerRules(doc *spec.Doc, cp *checkedProvider) diag.List {
	var l diag.List
	p, ok := cp.wire, cp.bad.clean
	if id, pkg := p.Provider.ID, p.Android.Package; ok("/provider/id", "/android/package") && id != pkg && !strings.HasPrefix(id, pkg+".") {
		l.Errorf(doc.Pos("/provider/id"), "provider-id-namespace",
			"provider id %q must be the Android package %q or a name under it (%s.<name>) (CETP v2 §3.1)", id, pkg, pkg)
	}
	if ok("/versions") && !slices.Contains(p.Versions, 2) {
		l.Errorf(doc.Pos("/versions"), "version-set",
			"versions must include 2: use [1, 2] for a dual-stack Provider or [2] for v2 only")
	}
	if i := slices.Index(p.Capabilities, protocol.CapCancellation); ok("/capabilities") && i >= 0 && !slices.Contains(p.Capabilities, protocol.CapAsyncOperations) {
		l.Errorf(doc.Pos(spec.Pointer("capabilities", itoa(i))), "cancellation-capability",
			"capability cancellation needs async_operations: only background operations can be cancelled (CETP v2 §4.4)")
	}
	if t := p.Targets; ok("/targets/go/package") && t != nil && t.Go != nil && token.IsKeyword(t.Go.Package) {
		l.Errorf(doc.Pos("/targets/go/package"), "bad-name", "%q is a Go keyword and cannot name a package", t.Go.Package)
	}
	if !ok("/scopes") {
		return l
	}
	seen := map[string]bool{}
	for i, s := range p.Scopes {
		if seen[s.Name] {
			l.Errorf(doc.Pos(spec.Pointer("scopes", itoa(i), "name")), "duplicate-scope", "scope %q is declared twice", s.Name)
		}
		seen[s.Name] = true
	}
	return l
}

// toolRules checks the annotation rules of CETP v2 §3.4 that need no
// provider facts.
func toolRules(doc *spec.Doc, t *spec.Tool) diag.List {
	var l diag.List
	a := t.Annotations
	if reason := protocol.ConfirmationReason(a.Effect, a.Risk, a.Destructive); reason != "" && a.Confirmation != protocol.ConfirmAlways {
		l.Errorf(doc.Pos("/annotations/confirmation"), "confirmation-required",
			"%s, so confirmation must be always (CETP v2 §3.4), not %s", reason, a.Confirmation)
	}
	if a.Effect == protocol.EffectRead && a.Destructive {
		l.Errorf(doc.Pos("/annotations/destructive"), "read-destructive",
			"a read tool cannot be destructive: effect=read must not change business state (CETP v2 §3.4)")
	}
	return l
}

// inputIsObject checks that input_schema describes a JSON object.
func inputIsObject(doc *spec.Doc, t *spec.Tool) diag.List {
	var l diag.List
	obj, _ := t.InputSchema.(map[string]any)
	typ, ok := obj["type"]
	switch {
	case !ok:
		l.Errorf(doc.Pos("/input_schema"), "input-not-object", "input_schema must declare type: object (args are a JSON object)")
	case typ != "object":
		l.Errorf(doc.Pos("/input_schema/type"), "input-not-object", "input_schema must be type: object (args are a JSON object), not %s", jsonText(typ))
	}
	return l
}

// crossRules checks what ties tools to provider.yaml and to each other,
// for every tool and provider part that kept to its meta-schema.
func crossRules(set *spec.Set, cp *checkedProvider, results []toolResult) diag.List {
	var l diag.List
	p, scopesOK, namesOK := cp.wire, cp.bad.clean("/scopes"), cp.bad.scopeNamesClean()
	declared, write := map[string]bool{}, map[string]bool{}
	for _, s := range p.Scopes {
		declared[s.Name] = true
		write[s.Name] = s.Access == protocol.AccessWrite
	}
	used := map[string]bool{}
	complete := set.ToolFiles > 0 && set.ToolFiles == len(results) && scopesOK
	bounds := boundsRules(cp, results)
	for i, r := range results {
		complete = complete && r.usable("/scopes")
		unknown := false
		if namesOK && r.usable("/scopes") {
			refs := scopeRefs(r.doc, r.tool, declared, used)
			unknown = refs.HasErrors()
			l.Add(refs...)
		}
		if cp.bad.clean("/capabilities") && r.usable("/annotations/execution") {
			l.Add(capabilityRules(r.doc, r.tool, p)...)
		}
		l.Add(bounds[i]...)
		if scopesOK && !unknown && r.usable("/scopes", "/annotations/effect") {
			l.Add(writeScopeLint(r.doc, r.tool, write)...)
		}
	}
	if cp.bad.clean("/cli") {
		l.Add(cliRules(set, p, cliTools(results))...)
	}
	l.Add(providerLints(set.Provider, p, used, complete)...)
	return l
}

// boundsRules runs unreachableBounds on every tool's input schema, where
// it and the provider's limits kept to their meta-schemas, on GOMAXPROCS
// workers; the result has one list per tool.
func boundsRules(cp *checkedProvider, results []toolResult) []diag.List {
	bounds := make([]diag.List, len(results))
	if !cp.bad.clean("/limits") {
		return bounds
	}
	limit := requestBytes(cp.wire)
	par.Each(len(results), func(i int) {
		if r := results[i]; r.usable("/input_schema") {
			bounds[i] = unreachableBounds(r.doc, r.tool.InputSchema, limit)
		}
	})
	return bounds
}

// cliTools are the tools whose name and cli block can take part in the
// command-path rules (nil where they broke the meta-schema).
func cliTools(results []toolResult) []*spec.Tool {
	tools := make([]*spec.Tool, len(results))
	for i, r := range results {
		if r.usable("/name", "/cli") {
			tools[i] = r.tool
		}
	}
	return tools
}

func scopeRefs(doc *spec.Doc, t *spec.Tool, declared, used map[string]bool) diag.List {
	var l diag.List
	for i, s := range t.Scopes {
		used[s] = true
		if !declared[s] {
			l.Errorf(doc.Pos(spec.Pointer("scopes", itoa(i))), "unknown-scope", "scope %q is not declared in provider.yaml%s", s, declaredList(declared, s))
		}
	}
	return l
}

// declaredList names the declared scopes for an unknown-scope message,
// the likeliest meant one first.
func declaredList(declared map[string]bool, unknown string) string {
	names := sortedKeys(declared)
	if len(names) == 0 {
		return "; it declares no scopes"
	}
	if near := nearest(unknown, names); near != "" {
		return "; did you mean " + near + "? (declared: " + strings.Join(names, ", ") + ")"
	}
	return "; declared: " + strings.Join(names, ", ")
}

func capabilityRules(doc *spec.Doc, t *spec.Tool, p *spec.Provider) diag.List {
	var l diag.List
	if t.Annotations.Execution == protocol.ExecSyncOrAsync && !slices.Contains(p.Capabilities, protocol.CapAsyncOperations) {
		l.Errorf(doc.Pos("/annotations/execution"), "async-capability",
			"execution sync_or_async needs the provider capability async_operations (CETP v2 §3.4)")
	}
	return l
}

func firstWord(path string) string {
	w, _, _ := strings.Cut(path, " ")
	return w
}
