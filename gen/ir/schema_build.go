package ir

import (
	"encoding/json"
	"maps"
	"math"
	"math/big"
	"slices"
	"strconv"

	"github.com/cetpgen/cetpgen/gen/internal/schemaref"
)

// builder builds the graph of one schema document.
type builder struct {
	r     *schemaref.Index
	byPtr map[string]*Node
	nodes []*Node
	any   *Node
}

// BuildGraph resolves and classifies a tool schema (the document doc of
// the tool's side "input" or "output").
func BuildGraph(doc any, tool, side string) *Graph {
	b := &builder{r: schemaref.New(doc, defaultBase(tool, side)), byPtr: map[string]*Node{}}
	root := b.node("")
	return &Graph{Root: root, Nodes: b.nodes, index: b.r}
}

// node returns the node of the subschema at ptr, building it on first
// use; a reference back to a node still being built (recursion) gets
// that node.
func (b *builder) node(ptr string) *Node {
	if n, ok := b.byPtr[ptr]; ok {
		return n
	}
	v, _ := schemaref.ValueAt(b.r.Root, ptr)
	n := &Node{Ptr: ptr, Value: v}
	b.byPtr[ptr] = n
	b.nodes = append(b.nodes, n)
	b.classify(n)
	return n
}

// resolve resolves the reference ref of the subschema at ptr to the
// pointer of its target.
func (b *builder) resolve(ptr, ref string) (string, bool) {
	target, err := b.r.Resolve(b.r.Base(ptr), ref)
	return target, err == nil
}

// anyNode is the node of a value the schema leaves unconstrained (no
// "items", no "additionalProperties").
func (b *builder) anyNode() *Node {
	if b.any == nil {
		b.any = &Node{Ptr: "", Value: true, Kind: KindAny}
	}
	return b.any
}

// classify decides a node's kind once.
func (b *builder) classify(n *Node) {
	obj, ok := n.Value.(map[string]any)
	if !ok {
		if n.Value == false {
			n.Kind = KindNever
		}
		return
	}
	if ref := refOf(obj); ref != "" {
		if ptr, ok := b.resolve(n.Ptr, ref); ok {
			if target := b.node(ptr); !leadsTo(target, n) {
				n.Kind, n.Target = KindRef, target
			}
		}
		return
	}
	t := Admitted(obj)
	n.Nullable = t&TypeNull != 0
	if b.union(n, obj, t) || b.allOf(n, obj, t) {
		return
	}
	b.byTypes(n, obj, t)
}

// leadsTo reports whether following references from n reaches to (a
// reference cycle such as {$ref: "#/$defs/a"} at /$defs/a, which admits
// any value, since it constrains nothing).
func leadsTo(n, to *Node) bool {
	for range 64 {
		if n == to {
			return true
		}
		if n.Kind != KindRef || n.Target == nil {
			return false
		}
		n = n.Target
	}
	return true
}

// refOf is a schema's "$ref" (or "$dynamicRef", resolved like one).
func refOf(obj map[string]any) string {
	if r, ok := obj["$ref"].(string); ok {
		return r
	}
	r, _ := obj["$dynamicRef"].(string)
	return r
}

// deref follows "$ref" chains syntactically from the subschema at ptr
// (at most 32 steps) and returns where it ends and its schema.
func (b *builder) deref(ptr string) (string, any) {
	v, _ := schemaref.ValueAt(b.r.Root, ptr)
	for range 32 {
		obj, ok := v.(map[string]any)
		ref := refOf(obj)
		if !ok || ref == "" {
			break
		}
		next, ok := b.resolve(ptr, ref)
		if !ok {
			break
		}
		ptr = next
		v, _ = schemaref.ValueAt(b.r.Root, ptr)
	}
	return ptr, v
}

// admittedAt is the type set of the subschema at ptr after references
// (true admits everything, false nothing).
func (b *builder) admittedAt(ptr string) Types {
	_, v := b.deref(ptr)
	switch x := v.(type) {
	case bool:
		if x {
			return TypeAll
		}
		return 0
	case map[string]any:
		return Admitted(x)
	}
	return TypeAll
}

// byTypes classifies a schema by the set of types it admits.
func (b *builder) byTypes(n *Node, obj map[string]any, t Types) {
	nonNull := t &^ TypeNull
	switch {
	case nonNull == 0 && t == TypeNull:
		n.Kind = KindNull
	case nonNull == 0:
		n.Kind = KindNever
	case nonNull == TypeAll&^TypeNull:
		b.open(n, obj)
	case nonNull == TypeNumber || nonNull == TypeFraction:
		n.Kind = KindNumber
	case single(nonNull):
		b.shape(n, n.Ptr, obj, nonNull)
	default:
		b.typeUnion(n, obj, nonNull)
	}
}

// single reports whether t holds one type (number counts as one).
func single(t Types) bool { return t&(t-1) == 0 }

// open classifies a schema that admits every type: any JSON value, with
// a typed view for objects or arrays when it has keywords for them.
func (b *builder) open(n *Node, obj map[string]any) {
	n.Kind, n.Nullable = KindAny, true
	var views []Types
	if hasAny(obj, "properties", "required", "additionalProperties", "patternProperties", "unevaluatedProperties", "dependentSchemas", "minProperties", "maxProperties", "propertyNames") {
		views = append(views, TypeObject)
	}
	if hasAny(obj, "items", "prefixItems", "contains", "minItems", "maxItems", "uniqueItems", "unevaluatedItems") {
		views = append(views, TypeArray)
	}
	if len(views) == 0 {
		return
	}
	n.Kind, n.Open = KindUnion, true
	for _, t := range views {
		n.Variants = append(n.Variants, &Variant{Node: b.projection(n, obj, t)})
	}
}

// hasAny reports whether obj has one of the keywords.
func hasAny(obj map[string]any, keys ...string) bool {
	for _, k := range keys {
		if _, ok := obj[k]; ok {
			return true
		}
	}
	return false
}

// typeUnion classifies a schema admitting several types (a type list, or
// an enum of mixed values) as an open union with one variant per type.
func (b *builder) typeUnion(n *Node, obj map[string]any, t Types) {
	n.Kind = KindUnion
	for _, one := range []Types{TypeString, TypeNumber, TypeInteger, TypeBool, TypeObject, TypeArray} {
		if one == TypeInteger && t&TypeFraction != 0 {
			continue
		}
		if t&one == one || one == TypeNumber && t&TypeFraction != 0 {
			n.Variants = append(n.Variants, &Variant{Node: b.projection(n, obj, one)})
		}
	}
}

// projection is the node of a schema restricted to one type: the variant
// of a type list. It shares the schema's pointer but is not the
// subschema's own node.
func (b *builder) projection(of *Node, obj map[string]any, t Types) *Node {
	p := &Node{Ptr: of.Ptr, Value: obj}
	b.nodes = append(b.nodes, p)
	if t == TypeNumber {
		p.Kind = KindNumber
		return p
	}
	b.shape(p, of.Ptr, obj, t)
	return p
}

// shape classifies a schema of one type.
func (b *builder) shape(n *Node, ptr string, obj map[string]any, t Types) {
	switch t {
	case TypeBool:
		n.Kind = KindBool
	case TypeString:
		b.str(n, obj)
	case TypeInteger:
		n.Kind, n.Int = KindInteger, intKind(obj)
	case TypeObject:
		b.object(n, ptr, obj)
	case TypeArray:
		b.array(n, ptr, obj)
	}
}

// str classifies a string schema: an enum of strings, else a string with
// its format.
func (b *builder) str(n *Node, obj map[string]any) {
	n.Kind = KindString
	n.Format, _ = obj["format"].(string)
	vals, ok := obj["enum"].([]any)
	if !ok {
		return
	}
	var strs []*EnumValue
	for _, v := range vals {
		if s, ok := v.(string); ok {
			strs = append(strs, &EnumValue{Value: s})
		}
	}
	if len(strs) > 0 {
		n.Kind, n.Values = KindEnum, strs
	}
}

// intKind is Int64 when the bounds, enum (null aside) or const keep an
// integer schema within int64, else IntBig.
func intKind(obj map[string]any) IntKind {
	if vals, ok := obj["enum"].([]any); ok && allFit(slices.DeleteFunc(slices.Clone(vals), func(v any) bool { return v == nil })) {
		return Int64
	}
	if c, ok := obj["const"]; ok && allFit([]any{c}) {
		return Int64
	}
	lo, hi := firstOf(obj, "minimum", "exclusiveMinimum"), firstOf(obj, "maximum", "exclusiveMaximum")
	if lo != nil && hi != nil && allFit([]any{lo, hi}) {
		return Int64
	}
	return IntBig
}

// firstOf returns the first present keyword's value.
func firstOf(obj map[string]any, keys ...string) any {
	for _, k := range keys {
		if v, ok := obj[k]; ok {
			return v
		}
	}
	return nil
}

// allFit reports whether every value is a number within int64's range.
func allFit(vals []any) bool {
	lo, hi := new(big.Float).SetInt64(math.MinInt64), new(big.Float).SetInt64(math.MaxInt64)
	for _, v := range vals {
		n, ok := v.(json.Number)
		if !ok {
			return false
		}
		f, _, err := big.ParseFloat(string(n), 10, 128, big.ToNearestEven)
		if err != nil || f.Cmp(lo) < 0 || f.Cmp(hi) > 0 {
			return false
		}
	}
	return true
}

// object classifies an object schema: declared members and a policy for
// the others, or a map when only undeclared members are admitted.
func (b *builder) object(n *Node, ptr string, obj map[string]any) {
	policy, extraPtr := extraPolicy(ptr, obj)
	props, _ := obj["properties"].(map[string]any)
	if len(props) == 0 && policy != ExtraNone {
		n.Kind = KindMap
		n.ExtraNode = b.anyNode()
		if policy == ExtraTyped {
			n.ExtraNode = b.node(extraPtr)
		}
		return
	}
	n.Kind, n.Extra = KindObject, policy
	req := requiredSet(obj)
	for _, name := range slices.Sorted(maps.Keys(props)) {
		n.Props = append(n.Props, &Prop{Name: name, Required: req[name]})
	}
	for _, p := range n.Props {
		p.Node = b.node(ptr + "/properties/" + schemaref.Escape(p.Name))
	}
	if policy == ExtraTyped {
		n.ExtraNode = b.node(extraPtr)
	}
}

// extraPolicy decides what an object does with members beyond its
// properties, and where their schema is when it is one schema.
func extraPolicy(ptr string, obj map[string]any) (ExtraPolicy, string) {
	ap, hasAP := obj["additionalProperties"]
	patterns, _ := obj["patternProperties"].(map[string]any)
	if len(patterns) > 0 {
		return ExtraAny, ""
	}
	if hasAP {
		return policyOf(ap, ptr+"/additionalProperties")
	}
	if up, ok := obj["unevaluatedProperties"]; ok && !hasAny(obj, "allOf", "anyOf", "oneOf", "if", "then", "else", "dependentSchemas", "$ref", "$dynamicRef") {
		return policyOf(up, ptr+"/unevaluatedProperties")
	}
	return ExtraAny, ""
}

// policyOf is the policy that a schema for every other member sets.
func policyOf(s any, ptr string) (ExtraPolicy, string) {
	switch x := s.(type) {
	case bool:
		if x {
			return ExtraAny, ""
		}
		return ExtraNone, ""
	case map[string]any:
		if len(x) == 0 {
			return ExtraAny, ""
		}
	}
	return ExtraTyped, ptr
}

// requiredSet returns the members a schema requires.
func requiredSet(obj map[string]any) map[string]bool {
	out := map[string]bool{}
	req, _ := obj["required"].([]any)
	for _, r := range req {
		if s, ok := r.(string); ok {
			out[s] = true
		}
	}
	return out
}

// array classifies an array schema: a tuple with "prefixItems", else an
// array of "items" (any JSON when absent).
func (b *builder) array(n *Node, ptr string, obj map[string]any) {
	items, hasItems := obj["items"]
	prefix, isTuple := obj["prefixItems"].([]any)
	n.Kind, n.Items = KindArray, b.anyNode()
	if isTuple {
		n.Kind = KindTuple
		for i := range prefix {
			n.Prefix = append(n.Prefix, b.node(ptr+"/prefixItems/"+strconv.Itoa(i)))
		}
		if items == false {
			n.Items = nil
			return
		}
	}
	if hasItems {
		n.Items = b.node(ptr + "/items")
	}
}
