// Command openapi writes the OpenAPI 3.0 document equivalent to a CETP
// Provider spec: one POST operation per tool whose request and response
// bodies are the tool's input and output schemas, with each tool's $defs
// lifted into components.
//
//	openapi SPEC_DIR > openapi.json
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/cetpgen/cetpgen/gen"
	"github.com/cetpgen/cetpgen/gen/ir"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: openapi SPEC_DIR")
		os.Exit(2)
	}
	ps, l, err := gen.Check(gen.OSSource, os.Args[1:])
	if err != nil || l.HasErrors() {
		fmt.Fprintln(os.Stderr, err, l)
		os.Exit(1)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	if err := enc.Encode(document(ps[0])); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// document builds the OpenAPI document of a Provider.
func document(p *ir.Provider) map[string]any {
	schemas, paths := map[string]any{}, map[string]any{}
	for _, t := range p.Tools {
		base := camel(t.Name)
		schemas[base+"Input"] = convert(t.Input.Value, base, schemas)
		schemas[base+"Output"] = convert(t.Output.Value, base, schemas)
		paths["/tools/"+t.Name] = map[string]any{"post": operation(t, base)}
	}
	return map[string]any{
		"openapi":    "3.0.3",
		"info":       map[string]any{"title": p.Name, "version": "1"},
		"paths":      paths,
		"components": map[string]any{"schemas": schemas},
	}
}

// operation is the POST operation of one tool.
func operation(t *ir.Tool, base string) map[string]any {
	body := func(name string) map[string]any {
		return map[string]any{"application/json": map[string]any{"schema": map[string]any{"$ref": "#/components/schemas/" + name}}}
	}
	return map[string]any{
		"operationId": t.Name,
		"summary":     t.Title,
		"description": t.Description,
		"requestBody": map[string]any{"required": true, "content": body(base + "Input")},
		"responses":   map[string]any{"200": map[string]any{"description": "the result", "content": body(base + "Output")}},
	}
}

// convert rewrites a JSON Schema 2020-12 value into an OpenAPI 3.0 schema:
// $defs lifted into components as <Base>_<name>, their references
// rewritten, [T, null] type lists as nullable, numeric exclusive bounds
// as boolean flags, const as a one-value enum.
func convert(v any, base string, schemas map[string]any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = convert(e, base, schemas)
		}
		return out
	case map[string]any:
		return convertObject(x, base, schemas)
	}
	return v
}

func convertObject(x map[string]any, base string, schemas map[string]any) map[string]any {
	out := map[string]any{}
	for k, e := range x {
		switch k {
		case "$defs":
			for name, def := range e.(map[string]any) {
				schemas[base+"_"+name] = convert(def, base, schemas)
			}
		case "$ref":
			out[k] = "#/components/schemas/" + base + "_" + e.(string)[len("#/$defs/"):]
		case "type":
			convertType(e, out)
		case "exclusiveMinimum", "exclusiveMaximum":
			out["m"+k[len("exclusiveM"):]] = e
			out[k] = true
		case "const":
			out["enum"] = []any{e}
		default:
			out[k] = convert(e, base, schemas)
		}
	}
	return out
}

// convertType turns a type list with null into type + nullable.
func convertType(t any, out map[string]any) {
	list, ok := t.([]any)
	if !ok {
		out["type"] = t
		return
	}
	for _, e := range list {
		if e == "null" {
			out["nullable"] = true
		} else {
			out["type"] = e
		}
	}
}

// camel turns snake_case into CamelCase.
func camel(s string) string {
	out, up := []byte{}, true
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '_':
			up = true
		case up && c >= 'a' && c <= 'z':
			out, up = append(out, c-'a'+'A'), false
		default:
			out, up = append(out, c), false
		}
	}
	return string(out)
}
