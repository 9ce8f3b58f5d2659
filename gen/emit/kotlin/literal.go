package kotlin

import (
	"encoding/json"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"strings"
)

// jsonLiteral returns a Kotlin expression that builds the decoded JSON
// value v (as ir.Schema.Value holds it) with the kotlinx.serialization.json
// builders. Object members keep sorted key order; numbers keep their exact
// value (Long when an integer fits, else the literal text). indent is the
// indentation of the expression's line.
func jsonLiteral(v any, indent string) string {
	var b strings.Builder
	writeLiteral(&b, v, indent)
	return b.String()
}

// writeLiteral writes the builder expression of v to b.
func writeLiteral(b *strings.Builder, v any, indent string) {
	switch x := v.(type) {
	case map[string]any:
		writeObject(b, x, indent)
	case []any:
		writeArray(b, x, indent)
	case string:
		b.WriteString("JsonPrimitive(" + kotlinString(x) + ")")
	case json.Number:
		b.WriteString(numberLiteral(x))
	case bool:
		b.WriteString("JsonPrimitive(" + strconv.FormatBool(x) + ")")
	default:
		b.WriteString("JsonNull")
	}
}

// writeObject writes an object with buildJsonObject.
func writeObject(b *strings.Builder, m map[string]any, indent string) {
	if len(m) == 0 {
		b.WriteString("JsonObject(emptyMap())")
		return
	}
	inner := indent + "    "
	b.WriteString("buildJsonObject {\n")
	for _, k := range slices.Sorted(maps.Keys(m)) {
		b.WriteString(inner + "put(" + kotlinString(k) + ", ")
		writeLiteral(b, m[k], inner)
		b.WriteString(")\n")
	}
	b.WriteString(indent + "}")
}

// writeArray writes an array with buildJsonArray.
func writeArray(b *strings.Builder, a []any, indent string) {
	if len(a) == 0 {
		b.WriteString("JsonArray(emptyList())")
		return
	}
	inner := indent + "    "
	b.WriteString("buildJsonArray {\n")
	for _, v := range a {
		b.WriteString(inner + "add(")
		writeLiteral(b, v, inner)
		b.WriteString(")\n")
	}
	b.WriteString(indent + "}")
}

// numberLiteral keeps a JSON number exact: integers that fit a Long as Long
// literals, anything else as its literal text (JsonUnquotedLiteral), so the
// schema the SDK serves carries the number as the spec wrote it
// (JsonPrimitive(BigDecimal("1e-8")) would be served as 1E-8).
func numberLiteral(n json.Number) string {
	s := n.String()
	if i, ok := new(big.Int).SetString(s, 10); ok {
		if i.IsInt64() && i.Int64() != -1<<63 {
			return "JsonPrimitive(" + i.String() + "L)"
		}
	}
	return "JsonUnquotedLiteral(" + kotlinString(s) + ")"
}
