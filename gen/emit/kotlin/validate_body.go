package kotlin

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strings"
)

// body collects the Kotlin lines of one subschema's function. Its
// functions write the reaction to a failed keyword: report it and go on
// (ok = false) while the context wants more violations, else return.
type body struct {
	lines []string
	depth int
	// failed says some keyword can fail, so the function keeps "ok".
	failed bool
	// ann is the Kotlin expression of the annotations being collected:
	// "ev", the caller's (null when nobody reads them), or "me", the
	// subschema's own when it has unevaluatedProperties or
	// unevaluatedItems, which see only what its own keywords and in-place
	// subschemas evaluated; annSure says it is never null.
	ann     string
	annSure bool
	vars    int
}

// line writes one line at the current depth.
func (b *body) line(format string, args ...any) {
	b.lines = append(b.lines, strings.Repeat("    ", b.depth)+fmt.Sprintf(format, args...))
}

// open writes a line that opens a block.
func (b *body) open(format string, args ...any) {
	b.line(format, args...)
	b.depth++
}

// close ends the innermost block.
func (b *body) close() {
	b.depth--
	b.line("}")
}

// fresh returns a new local variable name.
func (b *body) fresh(prefix string) string {
	b.vars++
	return fmt.Sprintf("%s%d", prefix, b.vars)
}

// check writes: when cond is false, report keyword kw with msg.
func (b *body) check(cond, kw, msg string) { b.checkAt(cond, "l", kw, msg) }

// checkAt is check for a violation at the instance location loc.
func (b *body) checkAt(cond, loc, kw, msg string) {
	b.failed = true
	b.open("if (!(%s)) {", cond)
	b.line("if (!c.fail(%s, %s, %s)) return false", loc, kotlinString(kw), kotlinString(msg))
	b.line("ok = false")
	b.close()
}

// sub writes the call of a subschema's function, which reports its own
// violations.
func (b *body) sub(call string) {
	b.failed = true
	b.open("if (!%s) {", call)
	b.line("if (!c.more()) return false")
	b.line("ok = false")
	b.close()
}

// annotate records an evaluated member or items range when annotations
// are collected.
func (b *body) annotate(call string) {
	if b.annSure {
		b.line("%s.%s", b.ann, call)
		return
	}
	b.line("%s?.%s", b.ann, call)
}

// finish returns the function's lines. A subschema that collected its
// own annotations passes them to its caller's when it succeeds.
func (b *body) finish() []string {
	lines := b.lines
	if !b.failed {
		if b.annSure {
			lines = append(lines, "ev?.merge(me)")
		}
		return append(lines, "return true")
	}
	if b.annSure {
		lines = append(lines, "if (ok) ev?.merge(me)")
	}
	return append(append([]string{"var ok = true"}, lines...), "return ok")
}

// kwPtr is the schema pointer of keyword kw of the subschema at ptr.
func kwPtr(ptr, kw string) string { return ptr + "/" + kw }

// sizeArg reads a non-negative integer keyword value (2 and 2.0 alike),
// capped at Int.MAX_VALUE, which no JVM string, array or object exceeds.
func sizeArg(v any) (int64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	r, ok := new(big.Rat).SetString(string(n))
	if !ok || !r.IsInt() || r.Sign() < 0 {
		return 0, false
	}
	if !r.Num().IsInt64() || r.Num().Int64() > math.MaxInt32 {
		return math.MaxInt32, true
	}
	return r.Num().Int64(), true
}

// numberArg reads a number keyword value as its exact literal.
func numberArg(v any) (string, bool) {
	n, ok := v.(json.Number)
	return string(n), ok
}

// typeMask is the Kotlin mask of a "type" value (a name or a list).
func typeMask(v any) (string, bool) {
	bits := map[string]string{"null": "NULL", "boolean": "BOOLEAN", "object": "OBJECT", "array": "ARRAY",
		"string": "STRING", "integer": "INTEGER", "number": "NUMBER"}
	var names []any
	switch x := v.(type) {
	case string:
		names = []any{x}
	case []any:
		names = x
	default:
		return "", false
	}
	var parts []string
	for _, n := range names {
		s, _ := n.(string)
		if bits[s] == "" {
			return "", false
		}
		parts = append(parts, "V."+bits[s])
	}
	if len(parts) == 0 {
		return "", false
	}
	return strings.Join(parts, " or "), true
}

// typeWords lists a "type" value for a message.
func typeWords(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	var out []string
	for _, n := range v.([]any) {
		out = append(out, fmt.Sprint(n))
	}
	return strings.Join(out, " or ")
}
