package validate

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/cetpgen/cetpgen/gen/diag"
	"github.com/cetpgen/cetpgen/gen/spec"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

func newCompiler() *jsonschema.Compiler {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(refuseLoader{})
	return c
}

// compiledURL is the prefix of the URLs tool schemas are compiled under.
// jsonschema/v6 skips its own meta-schema validation for documents under
// https://json-schema.org/, so each schema is checked exactly once, against
// the flattened meta-schema (see flatMeta), which is several times faster
// than the official one; TestFlatMetaAgrees keeps the two in agreement.
const compiledURL = "https://json-schema.org/cetpgen-tool-schema"

// checkSchema validates the tool schema found at ptr in doc: dialect and
// references first, then the 2020-12 meta-schema, then compilation.
// Each schema gets a compiler of its own: embedded $id resources of
// different tools may share URIs and must not meet, and what a compiler
// holds becomes garbage with the schema instead of growing with every tool
// a worker checks (with no meta-schema to compile, a compiler costs
// nothing measurable).
func checkSchema(doc *spec.Doc, ptr string, v any) diag.List {
	if _, isBool := v.(bool); isBool {
		return nil
	}
	if l := checkRefs(doc, ptr, v); len(l) > 0 {
		return l
	}
	if l := metaCheck(doc, ptr, v); len(l) > 0 {
		return l
	}
	c := newCompiler()
	loc := compiledURL + ptr
	if err := c.AddResource(loc, v); err != nil {
		return schemaError(doc, ptr, err)
	}
	if _, err := c.Compile(loc); err != nil {
		return schemaError(doc, ptr, err)
	}
	return nil
}

// metaCheck validates a schema against the flattened 2020-12 meta-schema.
func metaCheck(doc *spec.Doc, ptr string, v any) diag.List {
	flat, err := loadFlatMeta()
	if err != nil {
		var l diag.List
		l.Errorf(doc.Pos(ptr), "schema-invalid", "meta-schema unavailable: %v", err)
		return l
	}
	if err := flat.Validate(v); err != nil {
		return schemaError(doc, ptr, err)
	}
	return nil
}

// schemaError maps a validation or compile failure to diagnostics.
// Meta-schema failures point at the offending keyword; anything else at
// the schema itself.
func schemaError(doc *spec.Doc, ptr string, err error) diag.List {
	var l diag.List
	var ve *jsonschema.ValidationError
	if errors.As(err, &ve) {
		for _, g := range groupLeaves(leaves(ve)) {
			l.Errorf(doc.Pos(ptr+g.ptr), "schema-invalid", "not a valid JSON Schema 2020-12%s: %s", keywordOf(g.ptr), g.message)
		}
		return l
	}
	l.Errorf(doc.Pos(ptr), "schema-invalid", "not a valid JSON Schema 2020-12: %s", compileMessage(err))
	return l
}

// leafGroup joins the failures at one place (an anyOf in the meta-schema
// yields one per branch) into one message.
type leafGroup struct {
	ptr     string
	message string
}

func groupLeaves(ls []*jsonschema.ValidationError) []leafGroup {
	byPtr := map[string][]string{}
	for _, leaf := range ls {
		p := instancePointer(leaf)
		byPtr[p] = append(byPtr[p], leaf.ErrorKind.LocalizedString(printer))
	}
	groups := make([]leafGroup, 0, len(byPtr))
	for p, msgs := range byPtr {
		sort.Strings(msgs)
		groups = append(groups, leafGroup{ptr: p, message: strings.Join(uniq(msgs), "; or ")})
	}
	sort.Slice(groups, func(i, j int) bool { return groups[i].ptr < groups[j].ptr })
	return groups
}

// compileMessage strips the synthetic document URL from a compiler error.
func compileMessage(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, compiledURL); i >= 0 {
		if j := strings.IndexAny(msg[i:], "\"' "); j > 0 {
			msg = msg[:i] + "this schema" + msg[i+j:]
		}
	}
	return msg
}

func uniq(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// keywordOf names the keyword whose value failed, from its pointer.
func keywordOf(ptr string) string {
	if ptr == "" {
		return ""
	}
	return fmt.Sprintf(" (value of %q)", spec.UnescapeToken(ptr[strings.LastIndexByte(ptr, '/')+1:]))
}
