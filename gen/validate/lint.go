package validate

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/cetpgen/cetpgen/gen/diag"
	"github.com/cetpgen/cetpgen/gen/spec"
	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// instructionRE matches text that addresses an agent instead of describing
// a tool. Such text in a description is a prompt-injection risk for every
// Consumer that shows it to a model (CETP v2 §7.3).
var instructionRE = regexp.MustCompile(`(?i)` +
	`ignore (all |any |the )?(previous|prior|above|earlier|preceding) |` +
	`disregard (all |any |the )?(previous|prior|above|earlier) |` +
	`\byou (must|should|have to) (always|never|now|first|immediately)\b|` +
	`\b(always|immediately) (call|invoke|run|use|execute) (this|the|another|every)\b|` +
	`\bnever (tell|ask|inform|warn) the user\b|` +
	`system prompt|\bas an ai\b|<\|?(system|im_start|assistant)|` +
	`(?m:^\s*(system|assistant)\s*:)|` +
	`忽略(之前|以上|先前|前面|所有)|你必须|系统提示`)

// instructionWords are words of which every match of instructionRE
// holds one, lowercased; text with none of them is not run through the
// expression, which most titles and descriptions are spared.
var instructionWords = []string{
	"ignore", "disregard", "you", "always", "immediately", "never", "system", "assistant",
	"as an ai", "<", "忽略", "你必须", "系统提示",
}

// readsLikeInstruction reports whether s matches instructionRE.
func readsLikeInstruction(s string) bool {
	return mayInstruct(s) && instructionRE.MatchString(s)
}

// mayInstruct reports whether s holds one of instructionWords under the
// case folding instructionRE's (?i) applies: besides upper-case ASCII,
// the Kelvin sign folds to k (strings.ToLower does that) and the long s
// to s.
func mayInstruct(s string) bool {
	low := strings.ReplaceAll(strings.ToLower(s), "ſ", "s")
	for _, w := range instructionWords {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

// annotationOnly are schema keywords that constrain nothing.
var annotationOnly = map[string]bool{
	"title": true, "description": true, "$comment": true, "examples": true,
	"default": true, "$schema": true, "$id": true, "$defs": true, "deprecated": true,
	"readOnly": true, "writeOnly": true, "$anchor": true, "$dynamicAnchor": true,
}

// toolLints are the warnings about one tool file.
// Each runs only where the file kept to its meta-schema.
func toolLints(doc *spec.Doc, r toolResult) diag.List {
	var l diag.List
	t := r.tool
	a := t.Annotations
	if r.usable("/annotations") && a.Effect == protocol.EffectRead && !a.Idempotent {
		l.Warnf(doc.Pos("/annotations/idempotent"), "read-not-idempotent",
			"a read tool changes nothing, so reading twice gives the same effect; declare idempotent: true")
	}
	if r.usable("/annotations", "/input_schema") && a.Effect != protocol.EffectRead && !closedObject(t.InputSchema) {
		l.Warnf(doc.Pos("/input_schema"), "open-input",
			"a %s tool should set additionalProperties: false on its input, so a misspelt argument is an error rather than ignored", a.Effect)
	}
	if r.usable("/output_schema") && acceptsAnything(t.OutputSchema) {
		l.Warnf(doc.Pos("/output_schema"), "open-output",
			"output_schema accepts any value, so neither the Provider nor Consumers can check results; describe the result")
	}
	l.Add(instructionLints(doc, doc.Value)...)
	return l
}

func closedObject(schema any) bool {
	obj, _ := schema.(map[string]any)
	return obj["additionalProperties"] == false || obj["unevaluatedProperties"] == false
}

func acceptsAnything(schema any) bool {
	if b, ok := schema.(bool); ok {
		return b
	}
	obj, _ := schema.(map[string]any)
	for k := range obj {
		if !annotationOnly[k] {
			return false
		}
	}
	return true
}

// instructionLints walks a document and warns about every title or
// description (also inside schemas) that reads like an agent instruction.
func instructionLints(doc *spec.Doc, v any) diag.List {
	w := instructionWalk{doc: doc}
	w.walk(v)
	return w.diags
}

// instructionWalk is one walk of instructionLints. path holds the
// pointer tokens down to the current value; a pointer is built only for
// a warning.
type instructionWalk struct {
	doc   *spec.Doc
	path  []string
	diags diag.List
}

// walk visits v and everything below it, warning about each title or
// description that matches instructionRE.
func (w *instructionWalk) walk(v any) {
	switch node := v.(type) {
	case map[string]any:
		for k, child := range node {
			w.path = append(w.path, k)
			if s, ok := child.(string); ok && (k == "title" || k == "description") && readsLikeInstruction(s) {
				w.diags.Warnf(w.doc.Pos(spec.Pointer(w.path...)), "instruction-text",
					"this %s reads like an instruction to an agent; describe what the tool does, never tell the agent what to do", k)
			} else {
				w.walk(child)
			}
			w.path = w.path[:len(w.path)-1]
		}
	case []any:
		for i, child := range node {
			w.path = append(w.path, strconv.Itoa(i))
			w.walk(child)
			w.path = w.path[:len(w.path)-1]
		}
	}
}

// providerLints are the warnings about provider.yaml, given which scopes
// the tools use. complete says every tool file was read: only then is a
// scope known to be unused.
func providerLints(doc *spec.Doc, p *spec.Provider, used map[string]bool, complete bool) diag.List {
	var l diag.List
	for i, s := range p.Scopes {
		if complete && !used[s.Name] {
			l.Warnf(doc.Pos(spec.Pointer("scopes", itoa(i), "name")), "unused-scope", "scope %q is declared but no tool uses it", s.Name)
		}
	}
	l.Add(instructionLints(doc, doc.Value)...)
	return l
}

// writeScopeLint warns about a write tool that no write scope guards.
func writeScopeLint(doc *spec.Doc, t *spec.Tool, write map[string]bool) diag.List {
	var l diag.List
	if t.Annotations.Effect != protocol.EffectRead && !slices.ContainsFunc(t.Scopes, func(s string) bool { return write[s] }) {
		l.Warnf(doc.Pos("/scopes"), "write-scope-access",
			"a %s tool should require at least one scope with access: write, so Consumers show users what they grant", t.Annotations.Effect)
	}
	return l
}
