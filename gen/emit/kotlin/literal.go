package kotlin

import (
	"encoding/json"
	"math/big"
	"strings"
)

// jsonLiteral returns a Kotlin expression that builds the decoded JSON
// value v (as ir.Schema.Value holds it) with the kotlinx.serialization.json
// builders. Object members keep sorted key order; numbers keep their exact
// value (Long when an integer fits, else BigInteger or BigDecimal built from
// the literal text). indent is the indentation of the expression's line.
func jsonLiteral(v any, indent string) string {
	switch x := v.(type) {
	case map[string]any:
		return objectLiteral(x, indent)
	case []any:
		return arrayLiteral(x, indent)
	case string:
		return "JsonPrimitive(" + kotlinString(x) + ")"
	case json.Number:
		return numberLiteral(x)
	case bool:
		if x {
			return "JsonPrimitive(true)"
		}
		return "JsonPrimitive(false)"
	}
	return "JsonNull"
}

// objectLiteral builds an object with buildJsonObject.
func objectLiteral(m map[string]any, indent string) string {
	if len(m) == 0 {
		return "JsonObject(emptyMap())"
	}
	inner := indent + "    "
	var b strings.Builder
	b.WriteString("buildJsonObject {\n")
	for _, k := range sortedKeys(m) {
		b.WriteString(inner + "put(" + kotlinString(k) + ", " + jsonLiteral(m[k], inner) + ")\n")
	}
	b.WriteString(indent + "}")
	return b.String()
}

// arrayLiteral builds an array with buildJsonArray.
func arrayLiteral(a []any, indent string) string {
	if len(a) == 0 {
		return "JsonArray(emptyList())"
	}
	inner := indent + "    "
	var b strings.Builder
	b.WriteString("buildJsonArray {\n")
	for _, v := range a {
		b.WriteString(inner + "add(" + jsonLiteral(v, inner) + ")\n")
	}
	b.WriteString(indent + "}")
	return b.String()
}

// numberLiteral keeps a JSON number exact: small integers as Long literals,
// anything else from its literal text through BigInteger or BigDecimal.
func numberLiteral(n json.Number) string {
	s := n.String()
	if i, ok := new(big.Int).SetString(s, 10); ok {
		if i.IsInt64() && i.Int64() != -1<<63 {
			return "JsonPrimitive(" + i.String() + "L)"
		}
		return "JsonPrimitive(java.math.BigInteger(" + kotlinString(s) + "))"
	}
	return "JsonPrimitive(BigDecimal(" + kotlinString(s) + "))"
}
