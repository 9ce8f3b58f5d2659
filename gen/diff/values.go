package diff

import (
	"encoding/json"
	"math/big"

	"github.com/cetpgen/cetpgen/gen/ir"
)

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
