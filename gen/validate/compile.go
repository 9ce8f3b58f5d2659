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

// schemaCompiler compiles the JSON Schemas of many tools with one
// jsonschema.Compiler, so the 2020-12 meta-schema is compiled once per
// worker rather than once per schema. It is not safe for concurrent use.
type schemaCompiler struct {
	c *jsonschema.Compiler
	n int
}

func newSchemaCompiler() *schemaCompiler {
	return &schemaCompiler{c: newCompiler()}
}

func newCompiler() *jsonschema.Compiler {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(refuseLoader{})
	return c
}

// checkSchema validates the tool schema found at ptr in doc: dialect and
// references first, then compilation against the 2020-12 meta-schema.
func (sc *schemaCompiler) checkSchema(doc *spec.Doc, ptr string, v any) diag.List {
	if _, isBool := v.(bool); isBool {
		return nil
	}
	scan := scanRefs(doc, ptr, v)
	if len(scan.diags) > 0 {
		return scan.diags
	}
	c := sc.c
	if scan.hasID {
		// Embedded $id resources of different tools may share URIs; they
		// must not meet in one compiler.
		c = newCompiler()
	}
	sc.n++
	loc := fmt.Sprintf("%s/%d/%s", rootBase, sc.n, strings.TrimPrefix(ptr, "/"))
	if err := c.AddResource(loc, v); err != nil {
		return schemaError(doc, ptr, err)
	}
	if _, err := c.Compile(loc); err != nil {
		return schemaError(doc, ptr, err)
	}
	return nil
}

// schemaError maps a compile failure to diagnostics. Meta-schema failures
// point at the offending keyword; anything else at the schema itself.
func schemaError(doc *spec.Doc, ptr string, err error) diag.List {
	var l diag.List
	var sve *jsonschema.SchemaValidationError
	var ve *jsonschema.ValidationError
	if errors.As(err, &sve) && errors.As(sve.Err, &ve) {
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
	if i := strings.Index(msg, rootBase); i >= 0 {
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
