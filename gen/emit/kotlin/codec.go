package kotlin

import (
	"fmt"
	"strings"
)

// codec writes Kotlin type names and JSON conversion expressions. J is the
// name of the generated support object holding the shape checks.
type codec struct {
	J string
	// qual qualifies class and enum names used outside their tool object.
	qual string
}

// typeName returns the Kotlin type of t.
func (c codec) typeName(t *ktype) string {
	name := c.baseName(t)
	if t.nullable {
		return name + "?"
	}
	return name
}

// simpleNames are the Kotlin types of the kinds without parameters.
var simpleNames = map[kind]string{
	kJSON: "JsonElement", kObject: "JsonObject", kString: "String",
	kLong: "Long", kDecimal: "BigDecimal", kBool: "Boolean",
}

// baseName returns the Kotlin type of t without nullability.
func (c codec) baseName(t *ktype) string {
	switch t.kind {
	case kClass:
		return c.qual + t.class.Name
	case kEnum:
		return c.qual + t.enum.Name
	case kUnion:
		return c.qual + t.union.Name
	case kList:
		return "List<" + c.typeName(t.elem) + ">"
	case kMap:
		return "Map<String, " + c.typeName(t.elem) + ">"
	}
	return simpleNames[t.kind]
}

// decode returns an expression converting the JsonElement expression e,
// found at the JSON pointer expression p, to t. Lambda parameters carry
// the nesting depth d so nested conversions never shadow each other.
func (c codec) decode(t *ktype, e, p string, d int) string {
	if t.nullable {
		v := fmt.Sprintf("n%d", d)
		return fmt.Sprintf("%s.orNull(%s) { %s -> %s }", c.J, e, v, c.decodeBase(t, v, p, d+1))
	}
	return c.decodeBase(t, e, p, d)
}

// checks name the shape check of the support object for simple kinds.
var checks = map[kind]string{kObject: "obj", kString: "string", kLong: "long", kDecimal: "decimal", kBool: "bool"}

// decodeBase is decode without the null check.
func (c codec) decodeBase(t *ktype, e, p string, d int) string {
	switch {
	case t.kind == kObject && t.closed:
		return fmt.Sprintf("%s.empty(%s, %s)", c.J, e, p)
	case t.kind == kLong && t.longs != nil:
		return fmt.Sprintf("%s.longIn(%s, %s, setOf(%s))", c.J, e, p, strings.Join(t.longs, ", "))
	case t.kind == kString && t.constant != nil:
		return fmt.Sprintf("%s.constant(%s, %s, %s)", c.J, e, p, kotlinString(*t.constant))
	case checks[t.kind] != "":
		return fmt.Sprintf("%s.%s(%s, %s)", c.J, checks[t.kind], e, p)
	case t.kind == kClass || t.kind == kEnum || t.kind == kUnion:
		return fmt.Sprintf("%s.fromJson(%s, %s)", c.baseName(t), e, p)
	case t.kind == kList:
		return c.decodeList(t, e, p, d)
	case t.kind == kMap:
		return c.decodeMap(t, e, p, d)
	}
	return e
}

// decodeList decodes an array element by element, with each one's pointer.
func (c codec) decodeList(t *ktype, e, p string, d int) string {
	i, v := fmt.Sprintf("i%d", d), fmt.Sprintf("e%d", d)
	at := fmt.Sprintf("%s.at(%s, %s)", c.J, p, i)
	return fmt.Sprintf("%s.arr(%s, %s).mapIndexed { %s, %s -> %s }", c.J, e, p, i, v, c.decode(t.elem, v, at, d+1))
}

// decodeMap decodes an object member by member, keeping member order.
func (c codec) decodeMap(t *ktype, e, p string, d int) string {
	k, v := fmt.Sprintf("k%d", d), fmt.Sprintf("v%d", d)
	at := fmt.Sprintf("%s.at(%s, %s)", c.J, p, k)
	return fmt.Sprintf("%s.obj(%s, %s).mapValues { (%s, %s) -> %s }", c.J, e, p, k, v, c.decode(t.elem, v, at, d+1))
}

// encode returns an expression converting the Kotlin value expression v of
// type t to a JsonElement.
func (c codec) encode(t *ktype, v string, d int) string {
	if t.nullable {
		x := fmt.Sprintf("x%d", d)
		return fmt.Sprintf("(%s?.let { %s -> %s } ?: JsonNull)", v, x, c.encodeBase(t, x, d+1))
	}
	return c.encodeBase(t, v, d)
}

// encodeBase is encode for a value known not to be null.
func (c codec) encodeBase(t *ktype, v string, d int) string {
	switch t.kind {
	case kString, kLong, kDecimal, kBool:
		return fmt.Sprintf("JsonPrimitive(%s)", v)
	case kClass, kEnum, kUnion:
		return v + ".toJson()"
	case kList:
		x := fmt.Sprintf("x%d", d)
		return fmt.Sprintf("JsonArray(%s.map { %s -> %s })", v, x, c.encode(t.elem, x, d+1))
	case kMap:
		x := fmt.Sprintf("x%d", d)
		return fmt.Sprintf("JsonObject(%s.mapValues { (_, %s) -> %s })", v, x, c.encode(t.elem, x, d+1))
	}
	return v
}
