package diff

import (
	"fmt"
	"slices"

	"github.com/cetpgen/cetpgen/gen/ir"
)

// check records every way in which narrow may accept an instance that wide
// rejects.
func (c *checker) check(wide, narrow node) {
	key, stop := c.enter(wide, narrow)
	if stop {
		return
	}
	defer c.leave(key)
	wide, okW := c.deref(wide, narrow)
	narrow, okN := c.deref(narrow, wide)
	if !okW || !okN || wide.isTrue() || narrow.isFalse() || sameSchema(wide, narrow) {
		return
	}
	if wide.isFalse() {
		c.add(kType, wide, narrow, "false", c.pick("the input schema now rejects every value", "the output schema was false and now admits values"))
		return
	}
	if c.unions(wide, narrow) {
		return
	}
	c.keywords(wide, narrow)
}

// enter guards against endless recursion through recursive $refs and
// overly deep schemas. It reports stop when the pair needs no (further)
// work: an identical pair (same places, same content) is being compared
// further up the stack, in which case containment holds coinductively if
// the comparison has descended into the instance since (a property or an
// item: every loop then consumes part of a finite instance), and is
// undecided if it has not (a schema that refers to itself at the same
// instance location is an endless loop to a validator, not "anything"),
// or the depth limit was reached, which is recorded. Only pairs still on
// the stack are assumed: a pair compared before, perhaps with findings
// that a trial discarded, is compared again.
func (c *checker) enter(wide, narrow node) (key string, stop bool) {
	if _, isRef := wide.kw("$ref"); isRef {
		key = wide.ptr + "\x00" + narrow.ptr + "\x00" + text(wide.v) + "\x00" + text(narrow.v)
		if at, ok := c.active[key]; ok {
			if at == c.inst {
				c.unknown(wide, narrow, "$ref", "the reference loops back to itself without descending into the instance")
			}
			return "", true
		}
		c.active[key] = c.inst
	}
	if c.depth >= maxDepth || c.steps >= maxSteps {
		if c.steps >= maxSteps {
			c.unknown(wide, narrow, "schema", fmt.Sprintf("the comparison needs more than %d steps", maxSteps))
		} else {
			c.unknown(wide, narrow, "$ref", "schemas nest deeper than the comparison follows")
		}
		if key != "" {
			delete(c.active, key)
		}
		return "", true
	}
	c.depth++
	c.steps++
	return key, false
}

// leave ends the comparison of a pair that enter admitted.
func (c *checker) leave(key string) {
	if key != "" {
		delete(c.active, key)
	}
	c.depth--
}

// deref replaces a $ref by its target, following a chain of references
// to a schema that is not itself only a reference. A $ref with
// constraining siblings becomes an allOf of the target and the siblings.
// ok is false when a reference cannot be resolved locally or the chain
// loops; that is recorded as undecided.
func (c *checker) deref(n, other node) (node, bool) {
	for hop := 0; ; hop++ {
		ref, has := n.kw("$ref")
		if !has {
			return n, true
		}
		s, isString := ref.(string)
		target, ok := n.resolve(s)
		if !isString || !ok {
			c.unknown(n, other, "$ref", fmt.Sprintf("%s does not resolve inside the schema", text(ref)))
			return n, false
		}
		if hop >= maxDepth {
			c.unknown(n, other, "$ref", fmt.Sprintf("%s only refers to itself", text(ref)))
			return n, false
		}
		rest := n.without("$ref")
		if !rest.isTrue() {
			rest.v.(map[string]any)["allOf"] = append(listOf(rest.obj()["allOf"]), target.v)
			return rest, true
		}
		n = target
	}
}

// sameSchema reports whether two subschemas are written identically (as
// JSON values) and contain no $ref whose target could differ.
func sameSchema(a, b node) bool {
	return jsonEqual(a.v, b.v) && !hasRef(a.v)
}

// hasRef reports whether v contains a $ref or $dynamicRef anywhere.
func hasRef(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		if _, ok := x["$ref"]; ok {
			return true
		}
		if _, ok := x["$dynamicRef"]; ok {
			return true
		}
		for _, item := range x {
			if hasRef(item) {
				return true
			}
		}
	case []any:
		return slices.ContainsFunc(x, hasRef)
	}
	return false
}

// listOf returns v as a list, or nil.
func listOf(v any) []any {
	l, _ := v.([]any)
	return l
}

// descend compares a pair one level down in the instance (a property, an
// item, an additional member).
func (c *checker) descend(wide, narrow node) {
	c.inst++
	defer func() { c.inst-- }()
	c.check(wide, narrow)
}

// keywords compares the keywords of two non-union schemas.
func (c *checker) keywords(wide, narrow node) {
	c.undecidedKeywords(wide, narrow)
	tn := types(narrow)
	c.checkTypes(wide, narrow, tn)
	c.checkEnum(wide, narrow)
	if tn.HasAny(ir.TypeNumber) {
		c.numeric(wide, narrow, tn)
	}
	if tn.HasAny(ir.TypeString) {
		c.strings(wide, narrow)
	}
	if tn.HasAny(ir.TypeArray) {
		c.arrays(wide, narrow)
	}
	if tn.HasAny(ir.TypeObject) {
		c.objects(wide, narrow)
	}
}

// types returns the instance types a schema admits: its own type, enum
// and const (ir.Admitted), and nothing when its const is not among its
// enum values.
func types(n node) ir.Types {
	if n.isFalse() {
		return 0
	}
	s := ir.Admitted(n.obj())
	if vals, ok := values(n); ok {
		s &= ir.TypesOf(vals)
	}
	return s
}

// values returns the values a schema is restricted to by enum or const.
func values(n node) ([]any, bool) {
	e, hasEnum := n.kw("enum")
	list, isList := e.([]any)
	if v, ok := n.kw("const"); ok {
		if hasEnum && (!isList || !containsValue(list, v)) {
			return []any{}, true
		}
		return []any{v}, true
	}
	if hasEnum {
		return list, isList
	}
	return nil, false
}

// checkTypes records the types narrow admits and wide does not.
func (c *checker) checkTypes(wide, narrow node, tn ir.Types) {
	tw := types(wide)
	if _, restricted := values(wide); restricted {
		tw = declaredTypes(wide)
	}
	lost := tn &^ tw
	if lost == 0 {
		return
	}
	c.add(kType, wide, narrow, "type", c.pick(
		fmt.Sprintf("type narrowed from %s to %s: %s values are no longer accepted", tn, tw, lost),
		fmt.Sprintf("type widened from %s to %s: the tool may now return %s", tw, tn, lost)))
}

// declaredTypes returns the types of the type keyword alone.
func declaredTypes(n node) ir.Types {
	return types(n.without("enum", "const"))
}
