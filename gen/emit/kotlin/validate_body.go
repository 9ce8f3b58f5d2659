package kotlin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// body collects the Kotlin lines of one subschema's function. Its
// functions write the reaction to a failed keyword: report it and go on
// (ok = false) while the context wants more violations, else return.
type body struct {
	// buf holds the lines written so far, each indented and ended with a
	// newline.
	buf   []byte
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

// bodyIndent is the indentation of a function body's outermost lines:
// two levels, inside the validators object and the function.
const bodyIndent = "        "

// indent writes the indentation of a line at the current depth.
func (b *body) indent() {
	b.buf = append(b.buf, bodyIndent...)
	for range b.depth {
		b.buf = append(b.buf, "    "...)
	}
}

// line writes one line at the current depth, the concatenation of parts.
func (b *body) line(parts ...string) {
	b.indent()
	for _, p := range parts {
		b.buf = append(b.buf, p...)
	}
	b.buf = append(b.buf, '\n')
}

// open writes a line that opens a block.
func (b *body) open(parts ...string) {
	b.line(parts...)
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
	return prefix + strconv.Itoa(b.vars)
}

// check writes: when cond is false, report keyword kw with msg.
func (b *body) check(cond, kw, msg string) { b.checkAt(cond, "l", kw, msg) }

// checkAt is check for a violation at the instance location loc.
func (b *body) checkAt(cond, loc, kw, msg string) {
	b.failed = true
	b.open("if (!(", cond, ")) {")
	b.indent()
	b.buf = append(append(append(b.buf, "if (!c.fail("...), loc...), ", "...)
	b.buf = append(appendKotlinString(b.buf, kw), ", "...)
	b.buf = append(appendKotlinString(b.buf, msg), ")) return false\n"...)
	b.line("ok = false")
	b.close()
}

// sub writes the call of a subschema's function, which reports its own
// violations.
func (b *body) sub(call string) {
	b.failed = true
	b.open("if (!", call, ") {")
	b.line("if (!c.more()) return false")
	b.line("ok = false")
	b.close()
}

// annotate records an evaluated member or items range when annotations
// are collected.
func (b *body) annotate(call string) {
	if b.annSure {
		b.line(b.ann, ".", call)
		return
	}
	b.line(b.ann, "?.", call)
}

// finish returns the function's body: its lines, newline-separated. A
// subschema that collected its own annotations passes them to its
// caller's when it succeeds.
func (b *body) finish() string {
	var out strings.Builder
	out.Grow(len(b.buf) + 64)
	if b.failed {
		out.WriteString(bodyIndent + "var ok = true\n")
	}
	out.Write(b.buf)
	switch {
	case !b.failed && b.annSure:
		out.WriteString(bodyIndent + "ev?.merge(me)\n")
	case b.annSure:
		out.WriteString(bodyIndent + "if (ok) ev?.merge(me)\n")
	}
	if b.failed {
		out.WriteString(bodyIndent + "return ok")
	} else {
		out.WriteString(bodyIndent + "return true")
	}
	return out.String()
}

// text returns the lines written, newline-separated, as they are.
func (b *body) text() string {
	return string(bytes.TrimSuffix(b.buf, []byte("\n")))
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

// dec is n in decimal.
func dec[T int | int64](n T) string { return strconv.FormatInt(int64(n), 10) }
