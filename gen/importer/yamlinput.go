package importer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/cetpgen/cetpgen/gen/diag"
	"github.com/cetpgen/cetpgen/gen/source"
	"github.com/cetpgen/cetpgen/gen/spec"
	"gopkg.in/yaml.v3"
)

// maxYAMLNodes bounds alias expansion in a YAML input.
const maxYAMLNodes = 2_000_000

var yamlLineRE = regexp.MustCompile(`line (\d+)`)

var yamlNumberRE = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// parseDocument parses a JSON document, or a YAML one when the input does
// not start with "{" or "[" (OpenAPI documents are often YAML).
func parseDocument(path string, data []byte) (*document, diag.List) {
	trimmed := bytes.TrimLeft(data, " \t\r\n\ufeff")
	if len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') {
		return parseJSON(path, data)
	}
	return parseYAML(path, data)
}

// parseYAML decodes a YAML document into the JSON value model, rejecting
// what JSON cannot hold (as the spec loader does: timestamps, binary,
// non-decimal numbers, non-string keys, merge keys).
func parseYAML(path string, data []byte) (*document, diag.List) {
	var l diag.List
	if len(data) > MaxInputBytes {
		l.Errorf(source.FileStart(path), "import-too-large", "the input is %d bytes, over the %d-byte limit", len(data), MaxInputBytes)
		return nil, l
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		pos := source.FileStart(path)
		if m := yamlLineRE.FindStringSubmatch(err.Error()); m != nil {
			fmt.Sscanf(m[1], "%d", &pos.Line)
		}
		l.Errorf(pos, "import-yaml", "invalid YAML: %s", strings.TrimPrefix(err.Error(), "yaml: "))
		return nil, l
	}
	if len(root.Content) == 0 {
		l.Errorf(source.FileStart(path), "import-yaml", "the input is empty")
		return nil, l
	}
	y := &yamlConv{doc: &document{path: path, data: data, offsets: map[string]int{}, positions: map[string]source.Pos{}}}
	v, err := y.value(root.Content[0], "", 0)
	if err != nil {
		l.Errorf(err.pos, "import-yaml", "%s", err.msg)
		return nil, l
	}
	y.doc.value = v
	return y.doc, nil
}

type yamlConv struct {
	doc   *document
	nodes int
}

type yamlError struct {
	pos source.Pos
	msg string
}

func (y *yamlConv) errAt(n *yaml.Node, format string, args ...any) *yamlError {
	return &yamlError{source.Pos{File: y.doc.path, Line: n.Line, Col: n.Column}, fmt.Sprintf(format, args...)}
}

func (y *yamlConv) value(n *yaml.Node, ptr string, depth int) (any, *yamlError) {
	y.nodes++
	if y.nodes > maxYAMLNodes {
		return nil, y.errAt(n, "the document expands to more than %d values (aliases count each time they are used)", maxYAMLNodes)
	}
	if depth > MaxDepth {
		return nil, y.errAt(n, "values nest deeper than %d levels", MaxDepth)
	}
	y.doc.positions[ptr] = source.Pos{File: y.doc.path, Line: n.Line, Col: n.Column}
	switch n.Kind {
	case yaml.AliasNode:
		return y.value(n.Alias, ptr, depth+1)
	case yaml.MappingNode:
		obj := newObject()
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode || k.ShortTag() != "!!str" {
				return nil, y.errAt(k, "a mapping key must be a string (merge keys and other tags are YAML-only)")
			}
			if obj.has(k.Value) {
				return nil, y.errAt(k, "key %q appears twice in one mapping", k.Value)
			}
			v, err := y.value(n.Content[i+1], ptr+"/"+spec.EscapeToken(k.Value), depth+1)
			if err != nil {
				return nil, err
			}
			obj.set(k.Value, v)
		}
		return obj, nil
	case yaml.SequenceNode:
		arr := []any{}
		for i, c := range n.Content {
			v, err := y.value(c, fmt.Sprintf("%s/%d", ptr, i), depth+1)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		return arr, nil
	}
	return y.scalar(n)
}

func (y *yamlConv) scalar(n *yaml.Node) (any, *yamlError) {
	switch tag := n.ShortTag(); tag {
	case "!!str":
		return n.Value, nil
	case "!!bool":
		if n.Value != "true" && n.Value != "false" {
			return nil, y.errAt(n, "boolean %q is YAML-only; write true or false", n.Value)
		}
		return n.Value == "true", nil
	case "!!null":
		return nil, nil
	case "!!int", "!!float":
		lit := strings.TrimPrefix(n.Value, "+")
		if !yamlNumberRE.MatchString(lit) {
			return nil, y.errAt(n, "number %q is not a JSON number (no hex, octal, infinity or NaN)", n.Value)
		}
		return json.Number(lit), nil
	default:
		return nil, y.errAt(n, "%s values are YAML-only and JSON cannot hold them; quote the value", tag)
	}
}
