package validate

import (
	"errors"
	"strings"

	"github.com/cetpgen/cetpgen/gen/diag"
	"github.com/cetpgen/cetpgen/gen/internal/schemaref"
	"github.com/cetpgen/cetpgen/gen/spec"
)

// Dialect is the only JSON Schema dialect CETP v2 specs use (§3.2).
const Dialect = "https://json-schema.org/draft/2020-12/schema"

// rootBase is the base URI a schema document has when it declares no $id.
const rootBase = "https://cetpgen.invalid/schema"

// checkRefs checks the dialect of every subschema and every reference of
// the schema v found at ptr in doc: each "$id" and reference must be a URI
// reference, and each reference must resolve inside the document, as
// gen/internal/schemaref (which gen/ir builds the schema graph with)
// resolves it.
func checkRefs(doc *spec.Doc, ptr string, v any) diag.List {
	var l diag.List
	x := schemaref.New(v, rootBase)
	for _, b := range x.BadIDs {
		l.Errorf(doc.Pos(ptr+b.Ptr), "schema-invalid", "$id %q is not a valid URI reference: %v", b.ID, b.Err)
	}
	schemaref.Walk(v, ptr, func(obj map[string]any, at string) { l.Add(checkDialect(doc, obj, at)...) })
	for _, r := range x.Refs {
		_, err := x.Resolve(r.Base, r.Value)
		if err == nil {
			continue
		}
		// The position is looked up only for a bad reference: Pos parses
		// the file's text again, which a valid schema need not pay for.
		pos := doc.Pos(ptr + r.Ptr)
		switch {
		case errors.Is(err, schemaref.ErrSyntax):
			l.Errorf(pos, "schema-invalid", "$ref %q is %v", r.Value, err)
		case errors.Is(err, schemaref.ErrNonlocal):
			l.Errorf(pos, "schema-ref-nonlocal",
				"$ref %q points outside this schema; CETP v2 allows only references inside the same document (#/$defs/...)", r.Value)
		default:
			l.Errorf(pos, "schema-ref-unresolved", "$ref %q does not resolve to anything in this schema", r.Value)
		}
	}
	return l
}

// checkDialect checks the "$schema" of one subschema at ptr.
func checkDialect(doc *spec.Doc, obj map[string]any, ptr string) diag.List {
	var l diag.List
	d, ok := obj["$schema"]
	if !ok {
		return l
	}
	if str, _ := d.(string); strings.TrimSuffix(str, "#") != Dialect {
		l.Errorf(doc.Pos(ptr+"/$schema"), "schema-dialect",
			"schema dialect %s is not allowed; CETP v2 schemas use %s (or omit $schema)", jsonText(d), Dialect)
	}
	return l
}
