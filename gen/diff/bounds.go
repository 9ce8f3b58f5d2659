package diff

import (
	"fmt"
	"math/big"
	"regexp"

	"github.com/cetpgen/cetpgen/gen/ir"
)

// checkEnum records the values narrow admits outside wide's enum or const.
func (c *checker) checkEnum(wide, narrow node) {
	wv, restricted := values(wide)
	if !restricted {
		return
	}
	kw := enumKeyword(wide)
	nv, ok := values(narrow)
	if !ok {
		c.add(kEnum, wide, narrow, kw, c.pick(
			fmt.Sprintf("%s %s added: other values are no longer accepted", kw, text(wv)),
			fmt.Sprintf("%s %s removed: the tool may now return any value", kw, text(wv))))
		return
	}
	for _, v := range nv {
		if !containsValue(wv, v) {
			c.add(kEnum, wide, narrow, kw, c.pick(
				fmt.Sprintf("value %s removed from %s: it is no longer accepted", text(v), kw),
				fmt.Sprintf("value %s added to %s: the tool may now return it", text(v), kw)))
		}
	}
}

// enumKeyword names the keyword that restricts a schema's values.
func enumKeyword(n node) string {
	if _, ok := n.kw("const"); ok {
		return "const"
	}
	return "enum"
}

// containsValue reports whether list holds v (compared as JSON values).
func containsValue(list []any, v any) bool {
	for _, w := range list {
		if jsonEqual(v, w) {
			return true
		}
	}
	return false
}

// bound is one side's effective limit on a number: absent, or a value
// that is inclusive or exclusive.
type bound struct {
	val       *big.Rat
	exclusive bool
	kw        string
}

// lower returns the tightest lower bound of n, integers normalized to an
// inclusive bound when the schema admits only integers.
func lower(n node, intOnly bool) bound {
	return tightest(n, intOnly, "minimum", "exclusiveMinimum", -1)
}

// upper returns the tightest upper bound of n.
func upper(n node, intOnly bool) bound {
	return tightest(n, intOnly, "maximum", "exclusiveMaximum", 1)
}

// tightest combines an inclusive and an exclusive keyword; sign is -1 for
// lower bounds, +1 for upper bounds.
func tightest(n node, intOnly bool, incl, excl string, sign int) bound {
	var b bound
	if v, ok := rat(n.obj()[incl]); ok {
		b = bound{val: v, kw: incl}
	}
	if v, ok := rat(n.obj()[excl]); ok {
		e := bound{val: v, exclusive: true, kw: excl}
		if b.val == nil || tighter(e, b, sign) {
			b = e
		}
	}
	if intOnly && b.val != nil {
		b.val = integral(b, sign)
		b.exclusive, b.kw = false, incl
	}
	return b
}

// integral turns a bound on integers into the inclusive integer bound:
// ceil(v) or floor(v)+1 below, floor(v) or ceil(v)-1 above.
func integral(b bound, sign int) *big.Rat {
	one := big.NewRat(1, 1)
	if sign < 0 {
		if b.exclusive {
			return new(big.Rat).Add(floor(b.val), one)
		}
		return ceil(b.val)
	}
	if b.exclusive {
		return new(big.Rat).Sub(ceil(b.val), one)
	}
	return floor(b.val)
}

// floor rounds r toward negative infinity.
func floor(r *big.Rat) *big.Rat {
	return new(big.Rat).SetInt(new(big.Int).Div(r.Num(), r.Denom()))
}

// ceil rounds r toward positive infinity.
func ceil(r *big.Rat) *big.Rat {
	return new(big.Rat).Neg(floor(new(big.Rat).Neg(r)))
}

// tighter reports whether a is strictly tighter than b (sign as in
// tightest). An absent b is the loosest bound.
func tighter(a, b bound, sign int) bool {
	if a.val == nil {
		return false
	}
	if b.val == nil {
		return true
	}
	if cmp := a.val.Cmp(b.val) * -sign; cmp != 0 {
		return cmp > 0
	}
	return a.exclusive && !b.exclusive
}

// describe renders a bound for a message.
func (b bound) describe() string {
	if b.val == nil {
		return "none"
	}
	return fmt.Sprintf("%s %s", b.kw, b.val.RatString())
}

// numeric compares the number bounds and multipleOf.
func (c *checker) numeric(wide, narrow node, tn ir.Types) {
	intOnly := !tn.HasAny(ir.TypeFraction)
	c.compareBound(wide, narrow, lower(wide, intOnly), lower(narrow, intOnly), -1)
	c.compareBound(wide, narrow, upper(wide, intOnly), upper(narrow, intOnly), 1)
	c.multipleOf(wide, narrow)
}

// compareBound records a wide bound tighter than the narrow one.
func (c *checker) compareBound(wide, narrow node, bw, bn bound, sign int) {
	if !tighter(bw, bn, sign) {
		return
	}
	c.add(kBound, wide, narrow, bw.kw, c.pick(
		fmt.Sprintf("bound tightened from %s to %s", bn.describe(), bw.describe()),
		fmt.Sprintf("bound loosened from %s to %s", bw.describe(), bn.describe())))
}

// multipleOf records a wide multipleOf that the narrow one does not imply.
func (c *checker) multipleOf(wide, narrow node) {
	mw, ok := rat(wide.obj()["multipleOf"])
	if !ok {
		return
	}
	if mw.Sign() <= 0 {
		c.unknown(wide, narrow, "multipleOf", "multipleOf must be greater than 0")
		return
	}
	mn, okN := rat(narrow.obj()["multipleOf"])
	if okN && mn.Sign() != 0 && new(big.Rat).Quo(mn, mw).IsInt() {
		return
	}
	old, new := text(narrow.obj()["multipleOf"]), text(wide.obj()["multipleOf"])
	if !c.input {
		old, new = new, old
	}
	c.add(kBound, wide, narrow, "multipleOf", fmt.Sprintf("multipleOf changed from %s to %s", orNone(old), orNone(new)))
}

// orNone renders an absent value (encoded as null) as "none".
func orNone(s string) string {
	if s == "null" {
		return "none"
	}
	return s
}

// count compares one pair of integer bounds (minLength/maxLength and the
// like): a wide minimum above the narrow one, or a wide maximum below it.
func (c *checker) count(wide, narrow node, minKW, maxKW string) {
	wMin, nMin := intKW(wide, minKW, 0), intKW(narrow, minKW, 0)
	if wMin.Cmp(nMin) > 0 {
		c.countFinding(wide, narrow, minKW, nMin, wMin)
	}
	wMax, nMax := intKW(wide, maxKW, -1), intKW(narrow, maxKW, -1)
	if wMax.Sign() >= 0 && (nMax.Sign() < 0 || wMax.Cmp(nMax) < 0) {
		c.countFinding(wide, narrow, maxKW, nMax, wMax)
	}
}

// intKW reads a count keyword, or def (-1 meaning none).
func intKW(n node, kw string, def int64) *big.Rat {
	if v, ok := rat(n.obj()[kw]); ok {
		return v
	}
	return big.NewRat(def, 1)
}

// countFinding records a tightened (input) or loosened (output) count,
// worded as added or removed when one side has none.
func (c *checker) countFinding(wide, narrow node, kw string, vn, vw *big.Rat) {
	old, new := countText(vn), countText(vw)
	verb := "tightened"
	if !c.input {
		old, new, verb = new, old, "loosened"
	}
	msg := fmt.Sprintf("%s %s from %s to %s", kw, verb, old, new)
	switch {
	case old == "none":
		msg = fmt.Sprintf("%s %s added", kw, new)
	case new == "none":
		msg = fmt.Sprintf("%s %s removed", kw, old)
	}
	c.add(kBound, wide, narrow, kw, msg)
}

// countText renders a count bound, "none" when absent.
func countText(v *big.Rat) string {
	if v.Sign() < 0 {
		return "none"
	}
	return v.RatString()
}

// strings compares string lengths, pattern and format.
func (c *checker) strings(wide, narrow node) {
	c.count(wide, narrow, "minLength", "maxLength")
	c.pattern(wide, narrow)
	c.sameOrAbsent(wide, narrow, "format")
}

// pattern records a wide pattern that does not match every string the
// narrow side admits: the narrow side's enum or const strings are matched
// one by one; otherwise the two patterns are compared as regular
// languages, within the narrow side's length bounds (see regex.go).
func (c *checker) pattern(wide, narrow node) {
	wv, ok := wide.kw("pattern")
	ws, isString := wv.(string)
	if !ok || !isString {
		return
	}
	nv, okN := narrow.kw("pattern")
	if okN && jsonEqual(wv, nv) {
		return
	}
	ns, _ := nv.(string)
	before, after := text(nv), text(wv)
	if !okN {
		before = "none"
	}
	if !c.input {
		before, after = after, before
	}
	if vals, finite := values(narrow); finite {
		c.patternValues(wide, narrow, ws, vals, before, after)
		return
	}
	inc := patternIncluded(ns, ws, lengthsOf(narrow))
	switch {
	case !inc.decided:
		c.unknown(wide, narrow, "pattern", inc.reason)
	case !inc.included:
		c.add(kBound, wide, narrow, "pattern", c.pick(
			fmt.Sprintf("pattern changed from %s to %s: strings such as %q are no longer accepted", before, after, inc.witness),
			fmt.Sprintf("pattern changed from %s to %s: the tool may now return strings such as %q", before, after, inc.witness)))
	}
}

// patternValues checks the narrow side's enum or const strings against
// the wide pattern.
func (c *checker) patternValues(wide, narrow node, ws string, vals []any, before, after string) {
	re, err := regexp.Compile(ws)
	if err != nil {
		c.unknown(wide, narrow, "pattern", fmt.Sprintf("pattern %q does not compile: %v", ws, err))
		return
	}
	for _, v := range vals {
		if s, ok := v.(string); ok && !re.MatchString(s) {
			c.add(kBound, wide, narrow, "pattern", c.pick(
				fmt.Sprintf("pattern changed from %s to %s: the value %q is no longer accepted", before, after, s),
				fmt.Sprintf("pattern changed from %s to %s: the tool may now return %q", before, after, s)))
		}
	}
}

// lengthsOf returns a schema's string length bounds.
func lengthsOf(n node) lengths {
	l := lengths{min: 0, max: -1}
	if v, ok := rat(n.obj()["minLength"]); ok && v.IsInt() && v.Num().IsInt64() {
		l.min = int(min(v.Num().Int64(), maxTrackedLength+1))
	}
	if v, ok := rat(n.obj()["maxLength"]); ok && v.IsInt() && v.Num().IsInt64() {
		l.max = int(min(v.Num().Int64(), maxTrackedLength+1))
	}
	return l
}

// sameOrAbsent records a keyword that wide sets and narrow does not set
// the same way. Containment of formats is not decided: any other value
// counts as a change of bound.
func (c *checker) sameOrAbsent(wide, narrow node, kw string) {
	wv, ok := wide.kw(kw)
	if !ok {
		return
	}
	nv, okN := narrow.kw(kw)
	if okN && jsonEqual(wv, nv) {
		return
	}
	old, new := text(nv), text(wv)
	if !okN {
		old = "none"
	}
	if !c.input {
		old, new = new, old
	}
	c.add(kBound, wide, narrow, kw, fmt.Sprintf("%s changed from %s to %s", kw, old, new))
}
