package golang

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/cetpgen/cetpgen/gen/ir"
)

// mapped are the keywords the type mapping expresses (or that carry no
// constraint); every other keyword of a schema is named in the doc
// comment as checked by the runtime's schema validation.
var mapped = map[string]bool{
	"type": true, "properties": true, "required": true, "additionalProperties": true,
	"items": true, "$ref": true, "$defs": true, "definitions": true, "oneOf": true,
	"anyOf": true, "allOf": true, "title": true, "description": true, "$schema": true,
	"$id": true, "$anchor": true, "$comment": true, "examples": true, "deprecated": true,
	"readOnly": true, "writeOnly": true,
}

// maxNoteValue bounds the JSON of one keyword's value in a note.
const maxNoteValue = 120

// constraintNote lists the keywords of a schema that its Go type does not
// express, with their values, as one sentence; "" when there are none.
//
// A string enum and the date-time format are expressed by the type; a
// default is named because neither the type nor the runtime applies it; a
// $ref that does not resolve inside the document is named because its
// type is raw JSON.
func constraintNote(n *ir.Node) string {
	obj := n.Obj()
	var noted []string
	for k := range obj {
		if !(mapped[k] && !(k == "$ref" && n.Kind != ir.KindRef) ||
			k == "enum" && n.Kind == ir.KindEnum || k == "format" && n.Kind == ir.KindString && n.Format == "date-time" ||
			k == "patternProperties" && n.Kind == ir.KindObject) {
			noted = append(noted, k)
		}
	}
	if len(noted) == 0 {
		return ""
	}
	slices.Sort(noted)
	var b strings.Builder
	b.WriteString("Checked by the runtime's schema validation, not by this Go type: ")
	for i, k := range noted {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(k)
		b.WriteByte(' ')
		b.WriteString(noteValue(obj[k]))
	}
	b.WriteByte('.')
	return b.String()
}

// noteValue renders a keyword's value as compact JSON, bounded.
func noteValue(v any) string {
	switch v := v.(type) {
	case json.Number: // a JSON number's literal, as encoding/json prints it
		if len(v) <= maxNoteValue {
			return string(v)
		}
	case bool:
		return strconv.FormatBool(v)
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "(unprintable)"
	}
	s := strings.TrimSuffix(b.String(), "\n")
	if len(s) > maxNoteValue {
		s = truncate(s, maxNoteValue) + "…"
	}
	return s
}
