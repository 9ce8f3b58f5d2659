package validate

import (
	"go/token"
	"slices"
	"strings"

	"github.com/cetpgen/cetpgen/gen/diag"
	"github.com/cetpgen/cetpgen/gen/spec"
)

// Effect, confirmation, execution and capability values the rules test.
const (
	effectRead        = "read"
	confirmAlways     = "always"
	execSyncOrAsync   = "sync_or_async"
	capAsync          = "async_operations"
	capCancellation   = "cancellation"
	accessWrite       = "write"
	riskHigh          = "high"
	effectDelete      = "delete"
	effectTransaction = "transaction"
)

// providerRules checks the CETP v2 rules that concern provider.yaml alone.
func providerRules(doc *spec.Doc, p *spec.Provider) diag.List {
	var l diag.List
	if id, pkg := p.Provider.ID, p.Android.Package; id != pkg && !strings.HasPrefix(id, pkg+".") {
		l.Errorf(doc.Pos("/provider/id"), "provider-id-namespace",
			"provider id %q must be the Android package %q or a name under it (%s.<name>) (CETP v2 §3.1)", id, pkg, pkg)
	}
	if !slices.Contains(p.Versions, 2) {
		l.Errorf(doc.Pos("/versions"), "version-set",
			"versions must include 2: use [1, 2] for a dual-stack Provider or [2] for v2 only")
	}
	if i := slices.Index(p.Capabilities, capCancellation); i >= 0 && !slices.Contains(p.Capabilities, capAsync) {
		l.Errorf(doc.Pos(spec.Pointer("capabilities", itoa(i))), "cancellation-capability",
			"capability cancellation needs async_operations: only background operations can be cancelled (CETP v2 §4.4)")
	}
	if t := p.Targets; t != nil && t.Go != nil && token.IsKeyword(t.Go.Package) {
		l.Errorf(doc.Pos("/targets/go/package"), "bad-name", "%q is a Go keyword and cannot name a package", t.Go.Package)
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
	if reason := confirmationReason(a); reason != "" && a.Confirmation != confirmAlways {
		l.Errorf(doc.Pos("/annotations/confirmation"), "confirmation-required",
			"%s, so confirmation must be always (CETP v2 §3.4), not %s", reason, a.Confirmation)
	}
	if a.Effect == effectRead && a.Destructive {
		l.Errorf(doc.Pos("/annotations/destructive"), "read-destructive",
			"a read tool cannot be destructive: effect=read must not change business state (CETP v2 §3.4)")
	}
	return l
}

// confirmationReason says why a tool needs confirmation: always, or "".
func confirmationReason(a spec.Annotations) string {
	switch {
	case a.Effect == effectDelete || a.Effect == effectTransaction:
		return "the tool's effect is " + a.Effect
	case a.Destructive:
		return "the tool is destructive"
	case a.Risk == riskHigh:
		return "the tool's risk is high"
	}
	return ""
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

// crossRules checks what ties tools to provider.yaml and to each other.
func crossRules(set *spec.Set, p *spec.Provider, tools []*spec.Tool) diag.List {
	var l diag.List
	declared, write := map[string]bool{}, map[string]bool{}
	for _, s := range p.Scopes {
		declared[s.Name] = true
		write[s.Name] = s.Access == accessWrite
	}
	used := map[string]bool{}
	for i, t := range tools {
		if t == nil {
			continue
		}
		doc := set.Tools[i]
		l.Add(scopeRefs(doc, t, declared, used)...)
		l.Add(capabilityRules(doc, t, p)...)
		l.Add(writeScopeLint(doc, t, write)...)
	}
	l.Add(cliRules(set, p, tools)...)
	complete := set.ToolFiles > 0 && set.ToolFiles == len(tools) && !slices.Contains(tools, nil)
	l.Add(providerLints(set.Provider, p, used, complete)...)
	return l
}

func scopeRefs(doc *spec.Doc, t *spec.Tool, declared, used map[string]bool) diag.List {
	var l diag.List
	for i, s := range t.Scopes {
		used[s] = true
		if !declared[s] {
			l.Errorf(doc.Pos(spec.Pointer("scopes", itoa(i))), "unknown-scope", "scope %q is not declared in provider.yaml", s)
		}
	}
	return l
}

func capabilityRules(doc *spec.Doc, t *spec.Tool, p *spec.Provider) diag.List {
	var l diag.List
	if t.Annotations.Execution == execSyncOrAsync && !slices.Contains(p.Capabilities, capAsync) {
		l.Errorf(doc.Pos("/annotations/execution"), "async-capability",
			"execution sync_or_async needs the provider capability async_operations (CETP v2 §3.4)")
	}
	return l
}

func firstWord(path string) string {
	w, _, _ := strings.Cut(path, " ")
	return w
}
