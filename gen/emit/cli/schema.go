package cli

import (
	"encoding/json"

	"github.com/cetpgen/cetpgen/gen/ir"
	"github.com/cetpgen/cetpgen/runtime/cetpcli"
)

// scalarKinds are the flag kinds of the schema kinds a flag takes as
// written.
var scalarKinds = map[ir.Kind]cetpcli.Kind{
	ir.KindString: cetpcli.String, ir.KindInteger: cetpcli.Integer,
	ir.KindNumber: cetpcli.Number, ir.KindBool: cetpcli.Boolean, ir.KindEnum: cetpcli.Enum,
}

// scalarKind is the flag kind of a node the IR classified as a string,
// an integer, a number, a boolean or a string enum (nullable or not),
// with the enum's values; ok is false for any other node.
func scalarKind(n *ir.Node) (k cetpcli.Kind, enum []string, ok bool) {
	if n == nil {
		return "", nil, false
	}
	r := n.Resolved()
	k, ok = scalarKinds[r.Kind]
	if r.Kind == ir.KindEnum {
		for _, v := range r.Values {
			enum = append(enum, v.Value)
		}
	}
	return k, enum, ok
}

// flagKind is the kind of the flag of a member's node: a scalar, a list
// of scalars, else JSON.
func flagKind(n *ir.Node) (k cetpcli.Kind, list bool, enum []string) {
	if k, enum, ok := scalarKind(n); ok {
		return k, false, enum
	}
	if r := n.Resolved(); r.Kind == ir.KindArray {
		if k, enum, ok := scalarKind(r.Items); ok {
			return k, true, enum
		}
	}
	return cetpcli.JSON, false, nil
}

// jsonTypes are the JSON type names of the kinds that admit one type.
var jsonTypes = map[ir.Kind]string{
	ir.KindNull: "null", ir.KindBool: "boolean", ir.KindInteger: "integer", ir.KindNumber: "number",
	ir.KindString: "string", ir.KindEnum: "string", ir.KindObject: "object", ir.KindMap: "object",
	ir.KindArray: "array", ir.KindTuple: "array",
}

// jsonType is the one JSON type (null aside) a node admits, or "" when it
// admits several.
func jsonType(n *ir.Node) string { return jsonTypes[n.Resolved().Kind] }

// scalarText renders a scalar JSON value as a flag would take it, or "".
func scalarText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return string(x)
	case bool:
		if x {
			return "true"
		}
		return "false"
	}
	return ""
}
