package ir

import (
	"maps"
	"slices"
	"strconv"

	"github.com/cetpgen/cetpgen/gen/internal/schemaref"
)

// union classifies a schema by its "oneOf" or "anyOf" when every branch
// gives a shape (a type, a reference, an enum or const, or object or
// array keywords): null branches make it nullable, one remaining branch
// is that branch's type, a string member every branch requires with a
// distinct constant makes a tagged union, anything else an open union. A
// union of pure constraints ({required: [a]}) does not type the value.
func (b *builder) union(n *Node, obj map[string]any, t Types) bool {
	for _, kw := range []string{"oneOf", "anyOf"} {
		list, ok := obj[kw].([]any)
		if !ok || len(list) == 0 || !b.shaped(n.Ptr+"/"+kw, list) {
			continue
		}
		var rest []*Node
		var restPtrs []string
		nullable := false
		for i := range list {
			ptr := n.Ptr + "/" + kw + "/" + strconv.Itoa(i)
			bt := b.admittedAt(ptr) & t
			if bt&TypeNull != 0 {
				nullable = true
			}
			if bt&^TypeNull == 0 {
				continue
			}
			rest = append(rest, b.node(ptr))
			restPtrs = append(restPtrs, ptr)
		}
		n.Nullable = nullable
		switch {
		case len(rest) == 0:
			n.Kind = KindNull
		case len(rest) == 1 && leadsTo(rest[0], n):
			// The one branch is the schema itself: it adds no shape.
			return false
		case len(rest) == 1:
			n.Kind, n.Target = KindRef, rest[0]
		default:
			b.variants(n, rest, restPtrs)
		}
		return true
	}
	return false
}

// shaped reports whether every branch of a union says what shape its
// values have.
func (b *builder) shaped(ptr string, list []any) bool {
	for i := range list {
		_, v := b.deref(ptr + "/" + strconv.Itoa(i))
		obj, ok := v.(map[string]any)
		if !ok {
			if v == true {
				return false
			}
			continue
		}
		if !hasAny(obj, "type", "enum", "const", "properties", "additionalProperties", "patternProperties", "items", "prefixItems") {
			return false
		}
	}
	return true
}

// variants makes a union of several branches tagged when a discriminator
// exists, else open.
func (b *builder) variants(n *Node, rest []*Node, ptrs []string) {
	n.Kind = KindUnion
	if prop, values, ok := b.discriminator(rest, ptrs); ok {
		n.Kind, n.Disc = KindTagged, prop
		for i, r := range rest {
			n.Variants = append(n.Variants, &Variant{Node: r, Value: values[i]})
		}
		return
	}
	for _, r := range rest {
		n.Variants = append(n.Variants, &Variant{Node: r})
	}
}

// discriminator finds a member that every branch, an object with
// declared members, requires with a distinct string const (or one-value
// enum): the first such member by name.
func (b *builder) discriminator(rest []*Node, ptrs []string) (string, []string, bool) {
	for _, r := range rest {
		if r.Resolved().Kind != KindObject {
			return "", nil, false
		}
	}
	_, first := b.deref(ptrs[0])
	props, _ := first.(map[string]any)["properties"].(map[string]any)
	for _, prop := range slices.Sorted(maps.Keys(props)) {
		if values, ok := b.constValues(ptrs, prop); ok {
			return prop, values, true
		}
	}
	return "", nil, false
}

// constValues returns each branch's constant of prop, if every branch
// requires it with one and they differ.
func (b *builder) constValues(ptrs []string, prop string) ([]string, bool) {
	var values []string
	for _, ptr := range ptrs {
		at, v := b.deref(ptr)
		obj, _ := v.(map[string]any)
		props, _ := obj["properties"].(map[string]any)
		if _, ok := props[prop]; !ok || !requiredSet(obj)[prop] {
			return nil, false
		}
		_, pv := b.deref(at + "/properties/" + schemaref.Escape(prop))
		c, ok := constString(pv)
		if !ok || slices.Contains(values, c) {
			return nil, false
		}
		values = append(values, c)
	}
	return values, true
}

// constString returns the string const (or one-value enum) of a schema.
func constString(s any) (string, bool) {
	obj, _ := s.(map[string]any)
	if c, ok := obj["const"].(string); ok {
		return c, true
	}
	if vals, ok := obj["enum"].([]any); ok && len(vals) == 1 {
		c, ok := vals[0].(string)
		return c, ok
	}
	return "", false
}

// allOf classifies a schema with "allOf" by the types its own keywords
// and every member admit together: objects merge into one object whose
// members are the members' own nodes, one array or scalar type keeps the
// first part that defines it; anything else is typed by the schema's own
// keywords, which admit at least as much.
func (b *builder) allOf(n *Node, obj map[string]any, t Types) bool {
	list, ok := obj["allOf"].([]any)
	if !ok || len(list) == 0 {
		return false
	}
	parts := []string{n.Ptr}
	for i := range list {
		at, _ := b.deref(n.Ptr + "/allOf/" + strconv.Itoa(i))
		t &= b.admittedAt(at)
		parts = append(parts, at)
	}
	n.Nullable = t&TypeNull != 0
	switch nonNull := t &^ TypeNull; {
	case nonNull == TypeObject:
		b.mergeObjects(n, obj, parts)
	case nonNull == TypeArray || nonNull == TypeString || nonNull == TypeInteger || nonNull == TypeBool:
		ptr, part := b.firstPart(parts, nonNull)
		b.shape(n, ptr, part, nonNull)
	case nonNull == TypeNumber || nonNull == TypeFraction:
		n.Kind = KindNumber
	default:
		return false
	}
	return true
}

// firstPart returns the first of parts with keywords of the type t (its
// items, enum, bounds), else the schema itself.
func (b *builder) firstPart(parts []string, t Types) (string, map[string]any) {
	keys := map[Types][]string{
		TypeArray: {"items", "prefixItems"}, TypeString: {"enum", "format"},
		TypeInteger: {"minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "enum", "const"},
	}[t]
	for _, ptr := range parts {
		v, _ := schemaref.ValueAt(b.r.Root, ptr)
		if obj, ok := v.(map[string]any); ok && hasAny(obj, keys...) {
			return ptr, obj
		}
	}
	v, _ := schemaref.ValueAt(b.r.Root, parts[0])
	obj, _ := v.(map[string]any)
	return parts[0], obj
}

// mergeObjects makes one object of the schema and its allOf members: each
// declared member is the node of the first part that declares it, and
// required when any part requires it. Other members follow the schema's
// own policy, else any member is kept.
func (b *builder) mergeObjects(n *Node, obj map[string]any, parts []string) {
	n.Kind = KindObject
	n.Extra, _ = extraPolicy(n.Ptr, obj)
	if n.Extra == ExtraTyped {
		n.Extra = ExtraAny
	}
	where := map[string]string{}
	req := map[string]bool{}
	for _, ptr := range parts {
		v, _ := schemaref.ValueAt(b.r.Root, ptr)
		o, _ := v.(map[string]any)
		props, _ := o["properties"].(map[string]any)
		for name := range props {
			if _, seen := where[name]; !seen {
				where[name] = ptr + "/properties/" + schemaref.Escape(name)
			}
		}
		maps.Copy(req, requiredSet(o))
	}
	for _, name := range slices.Sorted(maps.Keys(where)) {
		n.Props = append(n.Props, &Prop{Name: name, Required: req[name]})
	}
	for _, p := range n.Props {
		p.Node = b.node(where[p.Name])
	}
	if len(n.Props) == 0 && n.Extra != ExtraNone {
		n.Kind, n.ExtraNode = KindMap, b.anyNode()
	}
}
