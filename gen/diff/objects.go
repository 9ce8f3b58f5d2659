package diff

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// arrays compares item counts, uniqueness and the items schema.
func (c *checker) arrays(wide, narrow node) {
	c.count(wide, narrow, "minItems", "maxItems")
	if wide.obj()["uniqueItems"] == true && narrow.obj()["uniqueItems"] != true {
		c.add(kBound, wide, narrow, "uniqueItems", c.pick(
			"uniqueItems added: arrays with repeated items are no longer accepted",
			"uniqueItems removed: the tool may now return repeated items"))
	}
	c.descend(subschema(wide, "items"), subschema(narrow, "items"))
}

// subschema returns the subschema under keyword kw, true when absent.
func subschema(n node, kw string) node {
	v, ok := n.kw(kw)
	if !ok {
		v = true
	}
	return n.child(v, kw)
}

// objects compares properties, required, additionalProperties and the
// property counts.
func (c *checker) objects(wide, narrow node) {
	c.count(wide, narrow, "minProperties", "maxProperties")
	wp, np := props(wide), props(narrow)
	dropped := map[string]bool{}
	for _, name := range unionKeys(wp, np) {
		c.property(wide, narrow, name, dropped)
	}
	c.required(wide, narrow, dropped)
	c.additional(wide, narrow)
}

// props returns a schema's properties keyword.
func props(n node) map[string]any {
	m, _ := n.obj()["properties"].(map[string]any)
	return m
}

// unionKeys returns the keys of a and b, sorted.
func unionKeys(a, b map[string]any) []string {
	all := map[string]any{}
	for k := range a {
		all[k] = nil
	}
	for k := range b {
		all[k] = nil
	}
	return slices.Sorted(maps.Keys(all))
}

// property compares the schemas the two sides give property name. A
// property only the new side declares is also noted as added.
func (c *checker) property(wide, narrow node, name string, dropped map[string]bool) {
	wv, inW := props(wide)[name]
	nv, inN := props(narrow)[name]
	switch {
	case inW && inN:
		c.descend(wide.child(wv, "properties", name), narrow.child(nv, "properties", name))
	case inN:
		if !c.input {
			c.added(wide, narrow.child(nv, "properties", name), narrow, name)
		}
		c.onlyNarrow(wide, narrow.child(nv, "properties", name), name)
	default:
		if c.input {
			c.added(wide.child(wv, "properties", name), narrow, wide, name)
		}
		c.onlyWide(wide.child(wv, "properties", name), narrow, name, dropped)
	}
}

// added notes a property that only the new side (parent) declares.
func (c *checker) added(wide, narrow, parent node, name string) {
	how := "optional"
	if slices.Contains(stringsOf(parent.obj()["required"]), name) {
		how = "required"
	}
	c.add(kAdded, wide, narrow, "properties", fmt.Sprintf("property %q added (%s)", name, how))
}

// onlyNarrow handles a property that only the narrow side declares: the
// wide side judges it by additionalProperties.
func (c *checker) onlyNarrow(wide, np node, name string) {
	if _, ok := wide.kw("patternProperties"); ok {
		c.unknown(wide, np, "patternProperties", fmt.Sprintf("property %q may match a pattern", name))
		return
	}
	addl := subschema(wide, "additionalProperties")
	if addl.isFalse() && !np.isFalse() {
		c.add(kClosed, wide, np, "properties", c.pick(
			fmt.Sprintf("property %q removed while additionalProperties is false: callers that send it are rejected", name),
			fmt.Sprintf("property %q added although the old output had additionalProperties: false", name)))
		return
	}
	c.descend(addl, np)
}

// onlyWide handles a property that only the wide side declares: the
// narrow side lets it through as an additional property, unless closed.
// On outputs the wide side is the old one, and a property it declared that
// the new output no longer declares is removed whether or not the new
// output is closed: Consumers that read it find it missing.
func (c *checker) onlyWide(wp, narrow node, name string, dropped map[string]bool) {
	addl := subschema(narrow, "additionalProperties")
	if addl.isFalse() && !c.input {
		dropped[name] = true
		c.add(kDropped, wp, narrow, "properties", fmt.Sprintf("property %q removed from the output", name))
		return
	}
	if addl.isFalse() || wp.isTrue() {
		return
	}
	if _, ok := narrow.kw("patternProperties"); ok {
		c.unknown(wp, narrow, "patternProperties", fmt.Sprintf("property %q may match a pattern", name))
		return
	}
	if !addl.isTrue() {
		c.descend(wp, addl)
		return
	}
	dropped[name] = true
	c.add(kDropped, wp, narrow, "properties", c.pick(
		fmt.Sprintf("property %q is now declared with constraints; the old open schema accepted any value for it", name),
		fmt.Sprintf("property %q removed from the output", name)))
}

// required records properties that wide requires and narrow does not,
// whatever additionalProperties says: a call (or result) without the
// property is accepted by narrow and rejected by wide.
func (c *checker) required(wide, narrow node, dropped map[string]bool) {
	nr := stringsOf(narrow.obj()["required"])
	for _, name := range stringsOf(wide.obj()["required"]) {
		if slices.Contains(nr, name) || (!c.input && dropped[name]) {
			continue
		}
		c.requiredFinding(wide, narrow, name)
	}
}

// requiredFinding records one property newly required (input) or no
// longer guaranteed (output). On inputs, a required property of the old
// side that the new side neither requires nor declares is named with it:
// together they read as a rename.
func (c *checker) requiredFinding(wide, narrow node, name string) {
	w, n := wide.child(nil, "required"), narrow.child(nil, "required")
	if _, declared := props(narrow)[name]; !c.input && !declared {
		c.add(kDropped, w, n, "required", fmt.Sprintf("property %q removed from the output", name))
		return
	}
	if !c.input {
		c.add(kRequired, w, n, "required", fmt.Sprintf("property %q is no longer required: the tool may omit it", name))
		return
	}
	msg := fmt.Sprintf("property %q is now required: callers that omit it are rejected", name)
	if gone := goneRequired(wide, narrow); len(gone) > 0 {
		msg = fmt.Sprintf("required property %s removed and %q now required (a rename): every call that sends %s and omits %q is rejected",
			quoteAll(gone), name, quoteAll(gone), name)
	}
	c.add(kRequired, w, n, "required", msg)
}

// goneRequired returns the properties narrow (the old input) requires that
// wide (the new input) neither requires nor declares.
func goneRequired(wide, narrow node) []string {
	wr := stringsOf(wide.obj()["required"])
	var out []string
	for _, name := range stringsOf(narrow.obj()["required"]) {
		if _, declared := props(wide)[name]; !declared && !slices.Contains(wr, name) {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// quoteAll renders names as a quoted, comma-separated list.
func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

// stringsOf returns the strings of a list value.
func stringsOf(v any) []string {
	var out []string
	for _, item := range listOf(v) {
		if s, ok := item.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// additional compares additionalProperties for properties neither side
// declares.
func (c *checker) additional(wide, narrow node) {
	wa, na := subschema(wide, "additionalProperties"), subschema(narrow, "additionalProperties")
	if na.isFalse() {
		return
	}
	if wa.isFalse() {
		c.add(kOther, wa, narrow, "additionalProperties", c.pick(
			"additionalProperties: false added: properties not listed are now rejected",
			"additionalProperties: false removed: the tool may now return properties not listed"))
		return
	}
	c.descend(wa, na)
}
