package ir

// Kind is how a schema node is typed; each node is classified once, and
// every target maps the kind (docs/go-mapping.md, docs/kotlin.md).
type Kind int

// The kinds.
const (
	// KindAny admits any JSON value (true, {}, or constraints that no
	// target type expresses): targets hold the JSON value.
	KindAny Kind = iota
	// KindNever admits no value (the schema false).
	KindNever
	// KindNull admits only null.
	KindNull
	KindBool
	// KindInteger is an integer; Int says which exact representation.
	KindInteger
	// KindNumber is any JSON number.
	KindNumber
	// KindString is a string; Format is its format ("date-time" is typed).
	KindString
	// KindEnum is a string enum: Values in schema order.
	KindEnum
	// KindObject is an object with declared members (Props) and a policy
	// for other members (Extra).
	KindObject
	// KindMap is an object of undeclared members only, each a Values node.
	KindMap
	// KindArray is an array of Items.
	KindArray
	// KindTuple is an array whose leading items are Prefix; Items types
	// the rest (nil when no more items are allowed).
	KindTuple
	// KindTagged is a union told apart by the string member Disc.
	KindTagged
	// KindUnion is an open union: the JSON value with one typed view per
	// variant; Open says values outside every variant are admitted too.
	KindUnion
	// KindRef has the type of Target: a "$ref", or a union or allOf that
	// reduces to one subschema.
	KindRef
)

// IntKind is the exact representation an integer needs.
type IntKind int

// The integer representations.
const (
	// IntBig is an integer of any size: the schema's bounds do not keep
	// it within int64.
	IntBig IntKind = iota
	// Int64 is an integer whose bounds (or enum, or const) keep it within
	// int64.
	Int64
)

// ExtraPolicy says what a KindObject does with members beyond Props.
type ExtraPolicy int

// The extra-member policies.
const (
	// ExtraNone: the schema admits no other member.
	ExtraNone ExtraPolicy = iota
	// ExtraAny: other members are admitted with any value (kept as JSON).
	ExtraAny
	// ExtraTyped: every other member is an ExtraNode value.
	ExtraTyped
)

// Node is one subschema, resolved and classified.
type Node struct {
	// Ptr is the node's JSON pointer in the tool schema document; a
	// projection (a variant of a type list) shares its schema's Ptr.
	Ptr string
	// Value is the subschema as decoded (map[string]any or bool).
	Value any
	Kind  Kind
	// Nullable says null is admitted besides the kind's values.
	Nullable bool
	// Target is what a KindRef stands for.
	Target *Node

	// Int is the representation of a KindInteger.
	Int IntKind
	// Format is the string format of a KindString.
	Format string
	// Values are the strings of a KindEnum, in schema order.
	Values []*EnumValue

	// Props are a KindObject's declared members, by name.
	Props []*Prop
	// Extra is a KindObject's policy for other members; ExtraNode types
	// them (ExtraTyped) and the values of a KindMap.
	Extra     ExtraPolicy
	ExtraNode *Node

	// Items types a KindArray's items or a KindTuple's items after Prefix.
	Items  *Node
	Prefix []*Node

	// Variants of a KindTagged or KindUnion, in schema order; Disc is a
	// KindTagged's discriminator member.
	Variants []*Variant
	Disc     string
	Open     bool

	// Declared says the node is a named type in every target; GoName and
	// KotlinName are its names, allocated once per Provider.
	Declared   bool
	GoName     string
	KotlinName string
	// What says what the node is, for doc comments ("the input of the tool x").
	What string
}

// Prop is a declared member of an object.
type Prop struct {
	Name     string
	Node     *Node
	Required bool
	// GoName and KotlinName are the field names, unique within the type.
	GoName, KotlinName string
	// CLIFlag is the generated CLI's flag of a top-level input member,
	// without the dashes, or "" when the member has none (see
	// nameFlags).
	CLIFlag string
}

// Variant is one branch of a union.
type Variant struct {
	Node *Node
	// Value is the discriminator's value (KindTagged only).
	Value string
	// GoName names the variant within its union (a field of a tagged
	// union, the As<GoName> accessor of an open union); GoCtor is the
	// package-level constructor of an open union's variant.
	GoName, GoCtor string
	KotlinName     string
}

// EnumValue is one value of a string enum and its constant names.
type EnumValue struct {
	Value              string
	GoName, KotlinName string
}

// Resolved follows KindRef nodes to the node that defines the type.
func (n *Node) Resolved() *Node {
	for range 64 {
		if n.Kind != KindRef || n.Target == nil {
			return n
		}
		n = n.Target
	}
	return n
}

// IsNullable reports whether null is admitted, through references.
func (n *Node) IsNullable() bool {
	for range 64 {
		if n.Nullable {
			return true
		}
		if n.Kind != KindRef || n.Target == nil {
			return n.Kind == KindAny || n.Kind == KindNull || n.Kind == KindUnion && n.Open
		}
		n = n.Target
	}
	return false
}

// Obj is the node's schema object (nil for a boolean schema).
func (n *Node) Obj() map[string]any {
	obj, _ := n.Value.(map[string]any)
	return obj
}
