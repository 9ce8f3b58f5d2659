package kotlin

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"

	"github.com/cetpgen/cetpgen/gen/ir"
)

// kind is the Kotlin shape a schema node maps to (docs/kotlin.md).
type kind int

// The kinds.
const (
	kRaw     kind = iota // any JSON value: JsonElement, null included
	kString              // String (a const string is checked)
	kLong                // integer within Long: Long
	kBig                 // integer of any size: java.math.BigInteger
	kDecimal             // number: java.math.BigDecimal, exact
	kBool                // Boolean
	kNamed               // a generated data class, object, enum class or sealed class
	kWrapped             // a generated open union: a class holding the JSON value, null included
	kList                // List<elem>
	kMap                 // Map<String, elem>
)

// ktype is the Kotlin type of one use of a schema node, with what its
// conversion needs. It is read off the IR's graph: every kind, name and
// reference comes from package ir.
type ktype struct {
	kind     kind
	nullable bool
	// name is a kNamed or kWrapped type's name; alias, when set, is the
	// typealias the type is written as (its structure is still the one
	// converted).
	name, alias string
	elem        *ktype
	// constant is the only accepted string of a const string.
	constant *string
	// longs are the allowed values of an integer enum, as Long literals.
	longs []string
}

// holdsNull reports whether values of the kind hold JSON null themselves,
// so that a nullable use is not written T?.
func (t *ktype) holdsNull() bool { return t.kind == kRaw || t.kind == kWrapped }

// use is the Kotlin type of a use of n (a member, an item, a root).
func use(n *ir.Node) *ktype { return useIn(n, nil) }

// useIn is use while the aliases on stack are being expanded.
func useIn(n *ir.Node, stack []*ir.Node) *ktype {
	if n == nil {
		return &ktype{kind: kRaw}
	}
	t := baseOf(n, stack)
	t.nullable = n.IsNullable() && !t.holdsNull()
	return t
}

// isClass reports whether a declared node is a class of its own rather
// than a typealias of its structure.
func isClass(n *ir.Node) bool {
	switch n.Kind {
	case ir.KindObject, ir.KindEnum, ir.KindTagged, ir.KindUnion:
		return true
	}
	return false
}

// baseOf is the type of n without nullability. A declared class is its
// name; a declared node of another kind is a typealias of its structure,
// and since Kotlin forbids recursive typealiases, an alias reached again
// while it is expanded is held as JsonElement (wider, never narrower).
func baseOf(n *ir.Node, stack []*ir.Node) *ktype {
	if n.Declared && isClass(n) {
		if n.Kind == ir.KindUnion {
			return &ktype{kind: kWrapped, name: n.KotlinName}
		}
		return &ktype{kind: kNamed, name: n.KotlinName}
	}
	if !n.Declared {
		return structure(n, stack)
	}
	if slices.Contains(stack, n) {
		return &ktype{kind: kRaw}
	}
	t := structure(n, append(stack, n))
	if len(stack) == 0 {
		t.alias = n.KotlinName
	}
	return t
}

// structure is the type of n's kind.
func structure(n *ir.Node, stack []*ir.Node) *ktype {
	switch n.Kind {
	case ir.KindRef:
		if n.Target == nil {
			return &ktype{kind: kRaw}
		}
		return baseOf(n.Target, stack)
	case ir.KindBool:
		return &ktype{kind: kBool}
	case ir.KindInteger:
		if n.Int == ir.Int64 {
			return &ktype{kind: kLong, longs: integerValues(n.Obj()["enum"])}
		}
		return &ktype{kind: kBig}
	case ir.KindNumber:
		return &ktype{kind: kDecimal}
	case ir.KindString:
		t := &ktype{kind: kString}
		if c, ok := n.Obj()["const"].(string); ok {
			t.constant = &c
		}
		return t
	case ir.KindArray:
		return &ktype{kind: kList, elem: useIn(n.Items, stack)}
	case ir.KindTuple:
		return &ktype{kind: kList, elem: &ktype{kind: kRaw}}
	case ir.KindMap:
		return &ktype{kind: kMap, elem: useIn(n.ExtraNode, stack)}
	}
	return &ktype{kind: kRaw}
}

// integerValues returns an integer enum's values as Kotlin Long literals
// (nil when there is no enum or a value is not an integer that fits a
// Long); null is skipped.
func integerValues(enum any) []string {
	values, ok := enum.([]any)
	if !ok {
		return nil
	}
	var out []string
	for _, v := range values {
		if v == nil {
			continue
		}
		n, ok := v.(json.Number)
		i, err := n.Int64()
		if !ok || err != nil || i == math.MinInt64 {
			return nil
		}
		out = append(out, strconv.FormatInt(i, 10)+"L")
	}
	return out
}
