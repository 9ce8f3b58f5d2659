package diff

import (
	"encoding/json"
	"math/big"
	"strings"

	"github.com/cetpgen/cetpgen/gen/ir"
)

// typeSet is a set of JSON Schema instance types. Integer is its own bit;
// "number" stands for numBits, both the integers and the other numbers.
type typeSet uint8

// The instance types. fraction is every number that is not an integer.
const (
	tNull typeSet = 1 << iota
	tBoolean
	tObject
	tArray
	tString
	tInteger
	tFraction
	numBits = tInteger | tFraction
	allType = tNull | tBoolean | tObject | tArray | tString | numBits
)

// typeNames maps a "type" keyword value to its bits.
var typeNames = map[string]typeSet{
	"null": tNull, "boolean": tBoolean, "object": tObject, "array": tArray,
	"string": tString, "integer": tInteger, "number": numBits,
}

// has reports whether every type of u is in s.
func (s typeSet) has(u typeSet) bool { return s&u == u && u != 0 }

// hasAny reports whether s and u share a type.
func (s typeSet) hasAny(u typeSet) bool { return s&u != 0 }

// String names the types of s as a schema author would write them.
func (s typeSet) String() string {
	var names []string
	for _, n := range []string{"null", "boolean", "object", "array", "string"} {
		if s.has(typeNames[n]) {
			names = append(names, n)
		}
	}
	switch {
	case s.has(numBits):
		names = append(names, "number")
	case s.has(tInteger):
		names = append(names, "integer")
	case s.has(tFraction):
		names = append(names, "non-integer number")
	}
	if len(names) == 0 {
		return "nothing"
	}
	return strings.Join(names, ", ")
}

// typeOfValue returns the type bit of a decoded JSON value.
func typeOfValue(v any) typeSet {
	switch x := v.(type) {
	case nil:
		return tNull
	case bool:
		return tBoolean
	case map[string]any:
		return tObject
	case []any:
		return tArray
	case string:
		return tString
	case json.Number:
		return numberType(x)
	case float64:
		return numberType(json.Number(big.NewFloat(x).Text('g', -1)))
	}
	return allType
}

// numberType returns the type bit of a JSON number.
func numberType(n json.Number) typeSet {
	if r, ok := rat(n); ok && r.IsInt() {
		return tInteger
	}
	return tFraction
}

// rat parses a JSON number exactly.
func rat(v any) (*big.Rat, bool) {
	var s string
	switch x := v.(type) {
	case json.Number:
		s = string(x)
	case float64:
		return new(big.Rat).SetFloat64(x), true
	default:
		return nil, false
	}
	r, ok := new(big.Rat).SetString(s)
	return r, ok
}

// jsonEqual reports whether two decoded JSON values are equal as JSON
// Schema compares them (numbers by value: 1 equals 1.0).
func jsonEqual(a, b any) bool {
	ra, okA := rat(a)
	rb, okB := rat(b)
	if okA || okB {
		return okA && okB && ra.Cmp(rb) == 0
	}
	switch x := a.(type) {
	case map[string]any:
		return objectsEqual(x, b)
	case []any:
		return arraysEqual(x, b)
	}
	return a == b
}

// objectsEqual compares an object with another value as JSON.
func objectsEqual(x map[string]any, b any) bool {
	y, ok := b.(map[string]any)
	if !ok || len(x) != len(y) {
		return false
	}
	for k, v := range x {
		w, ok := y[k]
		if !ok || !jsonEqual(v, w) {
			return false
		}
	}
	return true
}

// arraysEqual compares an array with another value as JSON.
func arraysEqual(x []any, b any) bool {
	y, ok := b.([]any)
	if !ok || len(x) != len(y) {
		return false
	}
	for i := range x {
		if !jsonEqual(x[i], y[i]) {
			return false
		}
	}
	return true
}

// text renders a decoded JSON value compactly for a message.
func text(v any) string {
	b, err := ir.Canonical(v)
	if err != nil {
		return "?"
	}
	return string(b)
}

// The JSON pointer token escapes (RFC 6901).
var (
	tokenEscaper   = strings.NewReplacer("~", "~0", "/", "~1")
	tokenUnescaper = strings.NewReplacer("~1", "/", "~0", "~")
)

// escapeToken escapes a JSON pointer token (RFC 6901).
func escapeToken(s string) string { return tokenEscaper.Replace(s) }

// unescapeToken undoes escapeToken.
func unescapeToken(s string) string { return tokenUnescaper.Replace(s) }
