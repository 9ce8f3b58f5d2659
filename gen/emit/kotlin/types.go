package kotlin

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// kind is the Kotlin shape a JSON Schema maps to.
type kind int

// The kinds (see docs/kotlin.md for the mapping table).
const (
	kJSON    kind = iota // any JSON value: JsonElement
	kObject              // any JSON object: JsonObject
	kString              // String (a const string is checked)
	kLong                // integer: Long
	kDecimal             // number: java.math.BigDecimal, exact
	kBool                // Boolean
	kClass               // a generated data class
	kEnum                // a generated enum class of string wire values
	kList                // List<elem>
	kMap                 // Map<String, elem> from additionalProperties
	kUnion               // a generated sealed interface of classes
)

// ktype is one Kotlin type with what its conversion needs.
type ktype struct {
	kind     kind
	nullable bool
	class    *class
	enum     *enum
	union    *union
	elem     *ktype
	// constant is the only accepted string of a const string.
	constant *string
	// closed marks a JsonObject whose schema allows no members at all.
	closed bool
	// longs are the allowed values of an integer enum, as Long literals.
	longs []string
	// why says why a schema was kept as JSON, for the KDoc.
	why string
}

// class is a generated data class.
type class struct {
	Name   string
	Doc    string
	Props  []*prop
	Closed bool
	// Extra is the Kotlin name of the property that keeps the members the
	// schema admits beyond the declared ones, empty for a closed class.
	Extra string
	// Implements are the unions the class is a variant of.
	Implements []string
}

// union is a oneOf or anyOf whose branches are object classes told apart
// by a required string constant (the discriminator).
type union struct {
	Name          string
	Doc           string
	Discriminator string
	Variants      []variant
}

// variant is one branch of a union and its discriminator value.
type variant struct {
	Value string
	Type  *ktype
}

// prop is one property of a data class.
type prop struct {
	Wire     string
	Name     string
	Type     *ktype
	Required bool
	Doc      string
}

// enum is a generated enum class.
type enum struct {
	Name   string
	Doc    string
	Values []enumValue
}

// enumValue is one enum constant and its exact wire string.
type enumValue struct {
	Const string
	Wire  string
}

// toolTypes holds the types generated for one tool.
type toolTypes struct {
	Input, Output *ktype
	Classes       []*class
	Enums         []*enum
	Unions        []*union
}

// builder maps one schema document to types, sharing the tool's names.
type builder struct {
	names *allocator
	out   *toolTypes
	root  map[string]any
	// defNames are the allocated class names of $defs, by def name.
	defNames map[string]string
	defs     map[string]*ktype
	building map[string]bool
}

// reservedTypeNames may never name a generated type: they would shadow
// the Kotlin and JSON types the generated code uses.
var reservedTypeNames = []string{
	"Any", "Array", "Boolean", "Int", "Long", "String", "List", "Map", "Set",
	"LinkedHashMap", "Unit", "Nothing", "Pair", "Charsets", "System",
	"Exception", "IllegalArgumentException", "ArithmeticException",
	"Companion", "Json", "JsonElement", "JsonObject", "JsonArray",
	"JsonPrimitive", "JsonNull", "BigDecimal", "Input", "Output",
	// Names the generated files import explicitly: an import beats a
	// declaration of the same package, so a tool object must not take one.
	"Bundle", "PendingIntent", "Service", "Intent", "IBinder",
	"CetpAccessDecision", "CetpCallerIdentity", "CetpLimits",
	"CetpMutationExecutor", "CetpProviderDescriptor", "CetpProviderRequest",
	"CetpProviderResult", "CetpProviderTool", "CetpV2ContentProvider",
	"ConfirmationPolicy", "ExecutionMode", "ProviderScope", "ScopeAccess",
	"ScopeSensitivity", "ToolAnnotations", "ToolEffect", "ToolRisk",
}

// buildToolTypes maps a tool's input and output schemas to Kotlin types.
// Names are allocated in a fixed order (roots, then $defs sorted, then
// nested types in sorted property order), so output is deterministic.
func buildToolTypes(input, output any, reserved []string) *toolTypes {
	out := &toolTypes{}
	names := newAllocator(append(append([]string{}, reservedTypeNames...), reserved...)...)
	in := newBuilder(names, out, input)
	outB := newBuilder(names, out, output)
	out.Input = in.root0("Input")
	out.Output = outB.root0("Output")
	in.allDefs()
	outB.allDefs()
	for _, u := range out.Unions {
		for _, v := range u.Variants {
			v.Type.class.Implements = append(v.Type.class.Implements, u.Name)
		}
	}
	return out
}

// newBuilder prepares a builder for one document, allocating its $defs'
// class names up front.
func newBuilder(names *allocator, out *toolTypes, doc any) *builder {
	root, _ := doc.(map[string]any)
	b := &builder{names: names, out: out, root: root, defNames: map[string]string{},
		defs: map[string]*ktype{}, building: map[string]bool{}}
	for _, d := range slices.Sorted(maps.Keys(b.defsMap())) {
		b.defNames[d] = names.name(pascal(d, "Def"))
	}
	return b
}

// root0 maps the document's root, naming its class fixed.
func (b *builder) root0(name string) *ktype {
	return b.typeOf(b.root, name, true)
}

// defsMap returns the document's $defs (or definitions) object.
func (b *builder) defsMap() map[string]any {
	if d, ok := b.root["$defs"].(map[string]any); ok {
		return d
	}
	d, _ := b.root["definitions"].(map[string]any)
	return d
}

// allDefs maps every def, referenced or not, so each named type exists.
func (b *builder) allDefs() {
	for _, d := range slices.Sorted(maps.Keys(b.defsMap())) {
		b.defType(d)
	}
}

// defType maps the def named name once; a def referenced while it is being
// mapped is a recursive reference, typed as its class when it is one.
func (b *builder) defType(name string) *ktype {
	if t, ok := b.defs[name]; ok {
		if b.building[name] && t.class == nil {
			return &ktype{kind: kJSON, why: "recursive $ref to a def that is not an object class"}
		}
		return t
	}
	schema := b.defsMap()[name]
	t := &ktype{}
	if isClassSchema(schema) {
		t = &ktype{kind: kClass, class: &class{Name: b.defNames[name]}}
	}
	b.defs[name], b.building[name] = t, true
	got := b.typeOf(schema, b.defNames[name], true)
	*t = *got
	b.building[name] = false
	return t
}

// isClassSchema reports whether a schema maps to a data class.
func isClassSchema(s any) bool {
	m, ok := s.(map[string]any)
	if !ok || hasAny(m, "$ref", "oneOf", "anyOf", "allOf", "not", "if", "enum", "const") {
		return false
	}
	props, _ := m["properties"].(map[string]any)
	types := typeList(m)
	return len(props) > 0 && (len(types) == 0 || (len(types) == 1 && types[0] == "object"))
}

// hasAny reports whether m has any of the keys.
func hasAny(m map[string]any, keys ...string) bool {
	for _, k := range keys {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

// typeList returns the schema's "type" without "null", as a list.
func typeList(m map[string]any) []string {
	var out []string
	switch t := m["type"].(type) {
	case string:
		if t != "null" {
			out = append(out, t)
		}
	case []any:
		for _, v := range t {
			if s, ok := v.(string); ok && s != "null" {
				out = append(out, s)
			}
		}
	}
	return out
}

// allowsNull reports whether the schema's type or enum admits null.
func allowsNull(m map[string]any) bool {
	if t, ok := m["type"].([]any); ok {
		for _, v := range t {
			if v == "null" {
				return true
			}
		}
	}
	if t, ok := m["type"].(string); ok && t == "null" {
		return true
	}
	if e, ok := m["enum"].([]any); ok {
		for _, v := range e {
			if v == nil {
				return true
			}
		}
	}
	return false
}

// typeOf maps schema s; hint names a class or enum it creates, fixed says
// the hint was allocated already (roots and defs).
func (b *builder) typeOf(s any, hint string, fixed bool) *ktype {
	m, ok := s.(map[string]any)
	if !ok {
		return &ktype{kind: kJSON, why: "the schema accepts any JSON value"}
	}
	if ref, ok := m["$ref"].(string); ok {
		return b.refType(ref)
	}
	if u := b.unionType(m, hint, fixed); u != nil {
		return u
	}
	for _, k := range []string{"oneOf", "anyOf", "allOf", "not", "if"} {
		if _, ok := m[k]; ok {
			return &ktype{kind: kJSON, why: fmt.Sprintf("%s is not mapped to a Kotlin type", k)}
		}
	}
	t := b.shapeOf(m, hint, fixed)
	if t.kind != kJSON {
		t.nullable = t.nullable || allowsNull(m)
	}
	return t
}

// refType maps a local $ref; only #/$defs/<name> becomes a named type.
func (b *builder) refType(ref string) *ktype {
	for _, prefix := range []string{"#/$defs/", "#/definitions/"} {
		name, ok := strings.CutPrefix(ref, prefix)
		if _, exists := b.defsMap()[name]; ok && exists {
			return b.defType(name)
		}
	}
	return &ktype{kind: kJSON, why: "$ref " + ref + " is not a #/$defs reference"}
}

// shapeOf maps a schema without $ref or combinators by its type keywords.
func (b *builder) shapeOf(m map[string]any, hint string, fixed bool) *ktype {
	if e, ok := m["enum"].([]any); ok {
		return b.enumType(m, e, hint, fixed)
	}
	if c, ok := m["const"].(string); ok {
		return &ktype{kind: kString, constant: &c}
	}
	types := typeList(m)
	if _, ok := m["const"]; ok && len(types) != 1 {
		return &ktype{kind: kJSON, why: "a non-string const without one declared type is kept as JSON"}
	}
	if len(types) == 0 {
		// Object or array keywords without "type" constrain only values of
		// that type: any other JSON value is valid, so a class or a list
		// would be narrower than the schema (the Go types hold it raw too).
		why := "the schema has no type, so it admits any JSON value"
		if kw := shapeKeywords(m); kw != "" {
			why = "the schema has no type: " + kw + " constrain only some of the JSON values it admits"
		}
		return &ktype{kind: kJSON, why: why}
	}
	if len(types) != 1 {
		return &ktype{kind: kJSON, why: "the schema allows several JSON types"}
	}
	return b.typed(types[0], m, hint, fixed)
}

// shapeKeywords names the object and array keywords of a schema without
// "type", for the KDoc, or returns "".
func shapeKeywords(m map[string]any) string {
	var kw []string
	for _, k := range []string{"properties", "additionalProperties", "patternProperties", "required", "items", "prefixItems"} {
		if _, ok := m[k]; ok {
			kw = append(kw, k)
		}
	}
	return strings.Join(kw, ", ")
}

// typed maps a schema of one JSON type.
func (b *builder) typed(jt string, m map[string]any, hint string, fixed bool) *ktype {
	switch jt {
	case "string":
		return &ktype{kind: kString}
	case "integer":
		return &ktype{kind: kLong}
	case "number":
		return &ktype{kind: kDecimal}
	case "boolean":
		return &ktype{kind: kBool}
	case "array":
		return &ktype{kind: kList, elem: b.typeOf(itemsOf(m), hint+"Item", false)}
	case "object":
		return b.objectType(m, hint, fixed)
	}
	return &ktype{kind: kJSON, why: "the schema only allows null"}
}

// itemsOf returns the items schema, or true (any) when there is none.
func itemsOf(m map[string]any) any {
	if it, ok := m["items"]; ok {
		return it
	}
	return true
}

// objectType maps an object schema: a class when it has properties, a map
// when only additionalProperties is a schema, else any JSON object.
func (b *builder) objectType(m map[string]any, hint string, fixed bool) *ktype {
	props, _ := m["properties"].(map[string]any)
	if len(props) == 0 {
		if ap, ok := m["additionalProperties"].(map[string]any); ok {
			return &ktype{kind: kMap, elem: b.typeOf(ap, hint+"Value", false)}
		}
		return &ktype{kind: kObject, closed: m["additionalProperties"] == false}
	}
	// additionalProperties: false closes the class unless patternProperties
	// admits more members; an open class keeps the members it does not
	// declare (class.Extra), as the Go structs keep them in Extra.
	_, patterns := m["patternProperties"]
	c := &class{Name: b.typeName(hint, fixed), Doc: docOf(m), Closed: m["additionalProperties"] == false && !patterns}
	b.out.Classes = append(b.out.Classes, c)
	c.Props = b.props(c, m, props)
	return &ktype{kind: kClass, class: c}
}

// props maps a class's properties in sorted wire-name order, with unique
// Kotlin names.
func (b *builder) props(c *class, m map[string]any, props map[string]any) []*prop {
	required := map[string]bool{}
	if r, ok := m["required"].([]any); ok {
		for _, v := range r {
			if s, ok := v.(string); ok {
				required[s] = true
			}
		}
	}
	names := newAllocator("toJson", "copy", "equals", "hashCode", "toString")
	var out []*prop
	for _, wire := range slices.Sorted(maps.Keys(props)) {
		id := names.name(camel(wire, "property"))
		t := b.typeOf(props[wire], pascal(wire, "Property"), false)
		out = append(out, &prop{Wire: wire, Name: quoted(id), Type: t, Required: required[wire], Doc: propDoc(props[wire], t)})
	}
	if !c.Closed {
		c.Extra = names.name("extra")
	}
	return out
}

// enumType maps an enum: an enum class when every value is a string, else
// the underlying type with the enum stated in the KDoc only.
func (b *builder) enumType(m map[string]any, values []any, hint string, fixed bool) *ktype {
	wires, ok := stringValues(values)
	if !ok {
		return b.nonStringEnum(m, hint, fixed)
	}
	if len(wires) == 0 {
		return &ktype{kind: kJSON, why: "the enum only allows null"}
	}
	e := &enum{Name: b.typeName(hint, fixed), Doc: docOf(m)}
	consts := newAllocator("Companion")
	for _, w := range wires {
		e.Values = append(e.Values, enumValue{Const: consts.name(upperSnake(w)), Wire: w})
	}
	b.out.Enums = append(b.out.Enums, e)
	return &ktype{kind: kEnum, enum: e}
}

// stringValues returns the enum's string values, skipping null; ok is
// false when a value is neither a string nor null.
func stringValues(values []any) (wires []string, ok bool) {
	for _, v := range values {
		switch s := v.(type) {
		case string:
			wires = append(wires, s)
		case nil:
		default:
			return nil, false
		}
	}
	return wires, true
}

// typeName returns the name of a new class, enum or union: the hint itself
// when it was allocated already (fixed), else a fresh name from it.
func (b *builder) typeName(hint string, fixed bool) string {
	if fixed {
		return hint
	}
	return b.names.name(hint)
}

// nonStringEnum maps an enum of other values by its declared type.
func (b *builder) nonStringEnum(m map[string]any, hint string, fixed bool) *ktype {
	types := typeList(m)
	if len(types) != 1 {
		return &ktype{kind: kJSON, why: "an enum of mixed values is kept as JSON"}
	}
	t := b.typed(types[0], m, hint, fixed)
	if t.kind == kLong {
		t.longs = integerValues(m["enum"].([]any))
	}
	return t
}

// integerValues returns the enum's integer values as Kotlin Long literals
// (nil when one is not an integer that fits a Long); null is skipped.
func integerValues(values []any) []string {
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

// docOf returns a schema's title and description as one text.
func docOf(m map[string]any) string {
	var parts []string
	for _, k := range []string{"title", "description"} {
		if s, ok := m[k].(string); ok && s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "\n\n")
}

// propDoc is a property's KDoc: its description, the facts the type does
// not carry (format, default, enum of non-strings) and why it is untyped.
func propDoc(s any, t *ktype) string {
	m, _ := s.(map[string]any)
	var parts []string
	if d := docOf(m); d != "" {
		parts = append(parts, d)
	}
	if f, ok := m["format"].(string); ok {
		parts = append(parts, "Format: "+f+".")
	}
	if d, ok := m["default"]; ok {
		parts = append(parts, "Default: "+compactJSON(d)+" (applied by the caller, not by decoding).")
	}
	if e, ok := m["enum"]; ok && t.kind != kEnum && t.longs == nil {
		parts = append(parts, "One of "+compactJSON(e)+" (not checked by decoding).")
	}
	if c, ok := m["const"]; ok && t.constant == nil {
		parts = append(parts, "Always "+compactJSON(c)+" (not checked by decoding).")
	}
	if t.kind == kJSON && t.why != "" {
		parts = append(parts, "Kept as JsonElement: "+t.why+".")
	}
	return strings.Join(parts, "\n\n")
}

// compactJSON renders a decoded JSON value compactly, for documentation.
func compactJSON(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(data)
}

// unionType maps a oneOf or anyOf (alone in its schema but for docs) whose
// branches are all object classes with one required string constant
// property in common, with distinct values, to a sealed interface. It
// returns nil for anything else.
func (b *builder) unionType(m map[string]any, hint string, fixed bool) *ktype {
	branches := unionBranches(m)
	if branches == nil || hasAny(m, "type", "properties", "allOf", "not", "if", "enum", "const") {
		return nil
	}
	resolved := b.classBranches(branches)
	if resolved == nil {
		return nil
	}
	disc, values := discriminator(resolved)
	if disc == "" {
		return nil
	}
	name := b.typeName(hint, fixed)
	u := &union{Name: name, Doc: docOf(m), Discriminator: disc}
	for i, br := range branches {
		u.Variants = append(u.Variants, variant{Value: values[i], Type: b.typeOf(br, name+pascal(values[i], "Variant"), false)})
	}
	b.out.Unions = append(b.out.Unions, u)
	return &ktype{kind: kUnion, union: u}
}

// classBranches resolves the branches, or returns nil unless every one is
// an object class.
func (b *builder) classBranches(branches []any) []map[string]any {
	resolved := make([]map[string]any, len(branches))
	for i, br := range branches {
		if resolved[i] = b.resolve(br); !isClassSchema(resolved[i]) {
			return nil
		}
	}
	return resolved
}

// unionBranches returns the branches of the schema's oneOf or anyOf.
func unionBranches(m map[string]any) []any {
	one, hasOne := m["oneOf"].([]any)
	anyOf, hasAnyOf := m["anyOf"].([]any)
	switch {
	case hasOne && !hasAnyOf && len(one) > 0:
		return one
	case hasAnyOf && !hasOne && len(anyOf) > 0:
		return anyOf
	}
	return nil
}

// resolve follows a #/$defs reference to its schema.
func (b *builder) resolve(s any) map[string]any {
	m, _ := s.(map[string]any)
	if ref, ok := m["$ref"].(string); ok {
		for _, prefix := range []string{"#/$defs/", "#/definitions/"} {
			if name, ok := strings.CutPrefix(ref, prefix); ok {
				d, _ := b.defsMap()[name].(map[string]any)
				return d
			}
		}
		return nil
	}
	return m
}

// discriminator finds the first property name (sorted) that every branch
// requires as a distinct string constant, and the branches' values.
func discriminator(branches []map[string]any) (string, []string) {
	props, _ := branches[0]["properties"].(map[string]any)
	for _, key := range slices.Sorted(maps.Keys(props)) {
		if values := constValues(branches, key); values != nil {
			return key, values
		}
	}
	return "", nil
}

// constValues returns each branch's required string const of key, or nil
// when a branch lacks one or two branches share a value.
func constValues(branches []map[string]any, key string) []string {
	seen := map[string]bool{}
	var values []string
	for _, br := range branches {
		props, _ := br["properties"].(map[string]any)
		p, _ := props[key].(map[string]any)
		c, ok := p["const"].(string)
		if !ok || seen[c] || !requires(br, key) {
			return nil
		}
		seen[c] = true
		values = append(values, c)
	}
	return values
}

// requires reports whether the schema lists key as required.
func requires(m map[string]any, key string) bool {
	r, _ := m["required"].([]any)
	for _, v := range r {
		if v == key {
			return true
		}
	}
	return false
}
