package ir

import (
	"encoding/json"
	"errors"
	"math"
	"strings"

	"github.com/cetpgen/cetpgen/runtime/jsonval"
)

// Types is a set of JSON types, the one type admission every stage that
// reads a schema uses (the graph's classification, gen/diff's
// containment). Integers and the other numbers are apart, so "type:
// number" is TypeInteger|TypeFraction.
type Types uint8

// The JSON types. TypeFraction is every number that is not an integer.
const (
	TypeNull Types = 1 << iota
	TypeBool
	TypeObject
	TypeArray
	TypeString
	TypeInteger
	TypeFraction
	TypeAll    = TypeNull | TypeBool | TypeObject | TypeArray | TypeString | TypeInteger | TypeFraction
	TypeNumber = TypeInteger | TypeFraction
)

// typeBits are the JSON Schema type names and their sets.
var typeBits = map[string]Types{
	"null": TypeNull, "boolean": TypeBool, "object": TypeObject, "array": TypeArray,
	"string": TypeString, "integer": TypeInteger, "number": TypeNumber,
}

// Has reports whether every type of u is in t (and u is not empty).
func (t Types) Has(u Types) bool { return t&u == u && u != 0 }

// HasAny reports whether t and u share a type.
func (t Types) HasAny(u Types) bool { return t&u != 0 }

// String names the types as a schema author would write them.
func (t Types) String() string {
	var names []string
	for _, n := range []string{"null", "boolean", "object", "array", "string"} {
		if t.Has(typeBits[n]) {
			names = append(names, n)
		}
	}
	switch {
	case t.Has(TypeNumber):
		names = append(names, "number")
	case t.Has(TypeInteger):
		names = append(names, "integer")
	case t.Has(TypeFraction):
		names = append(names, "non-integer number")
	}
	if len(names) == 0 {
		return "nothing"
	}
	return strings.Join(names, ", ")
}

// Admitted is the set of types a schema object's own "type", "enum" and
// "const" admit (an absent "type" admits every type).
func Admitted(obj map[string]any) Types {
	t := TypeAll
	switch x := obj["type"].(type) {
	case string:
		t = typeBits[x]
	case []any:
		t = 0
		for _, e := range x {
			s, _ := e.(string)
			t |= typeBits[s]
		}
	}
	if vals, ok := obj["enum"].([]any); ok {
		t &= TypesOf(vals)
	}
	if c, ok := obj["const"]; ok {
		t &= TypeOf(c)
	}
	return t
}

// TypesOf is the set of the types of the values.
func TypesOf(vals []any) Types {
	var t Types
	for _, v := range vals {
		t |= TypeOf(v)
	}
	return t
}

// TypeOf is the type of a decoded JSON value; an integral number is an
// integer whatever its spelling (1.0, 1e2, 1e5000).
func TypeOf(v any) Types {
	switch x := v.(type) {
	case nil:
		return TypeNull
	case bool:
		return TypeBool
	case string:
		return TypeString
	case json.Number:
		if _, err := jsonval.ParseInt(string(x)); errors.Is(err, jsonval.ErrNotInteger) {
			return TypeFraction
		}
		return TypeInteger
	case float64:
		if x == math.Trunc(x) && !math.IsInf(x, 0) {
			return TypeInteger
		}
		return TypeFraction
	case []any:
		return TypeArray
	case map[string]any:
		return TypeObject
	}
	return TypeAll
}
