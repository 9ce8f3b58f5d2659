package kotlin

import (
	"fmt"
	"strings"
)

// codec writes Kotlin type names and JSON conversion expressions. J is the
// name of the generated support object holding the shape checks.
type codec struct {
	J string
	// qual qualifies generated type names (the package and a dot) where a
	// nested declaration could shadow them, else it is empty.
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
	kRaw: "JsonElement", kString: "String", kLong: "Long", kBig: "BigInteger",
	kDecimal: "BigDecimal", kBool: "Boolean",
}

// baseName returns the Kotlin type of t without nullability.
func (c codec) baseName(t *ktype) string {
	switch {
	case t.alias != "":
		return c.qual + t.alias
	case t.kind == kNamed || t.kind == kWrapped:
		return c.qual + t.name
	case t.kind == kList:
		return "List<" + c.typeName(t.elem) + ">"
	case t.kind == kMap:
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
var checks = map[kind]string{kString: "string", kLong: "long", kBig: "bigInteger", kDecimal: "decimal", kBool: "bool"}

// decodeBase is decode without the null check.
func (c codec) decodeBase(t *ktype, e, p string, d int) string {
	switch {
	case t.kind == kLong && t.longs != nil:
		return fmt.Sprintf("%s.longIn(%s, %s, setOf(%s))", c.J, e, p, strings.Join(t.longs, ", "))
	case t.kind == kString && t.constant != nil:
		return fmt.Sprintf("%s.constant(%s, %s, %s)", c.J, e, p, kotlinString(*t.constant))
	case checks[t.kind] != "":
		return fmt.Sprintf("%s.%s(%s, %s)", c.J, checks[t.kind], e, p)
	case t.kind == kNamed || t.kind == kWrapped:
		return fmt.Sprintf("%s%s.fromJson(%s, %s)", c.qual, t.name, e, p)
	case t.kind == kList:
		return c.decodeList(t, e, p, d)
	case t.kind == kMap:
		return c.decodeMap(t, e, p, d)
	}
	return e
}

// decodeList decodes an array element by element, with each one's pointer.
func (c codec) decodeList(t *ktype, e, p string, d int) string {
	if t.elem.kind == kRaw {
		return fmt.Sprintf("%s.arr(%s, %s).toList()", c.J, e, p)
	}
	i, v := fmt.Sprintf("i%d", d), fmt.Sprintf("e%d", d)
	at := fmt.Sprintf("%s.at(%s, %s)", c.J, p, i)
	return fmt.Sprintf("%s.arr(%s, %s).mapIndexed { %s, %s -> %s }", c.J, e, p, i, v, c.decode(t.elem, v, at, d+1))
}

// decodeMap decodes an object member by member, keeping member order.
func (c codec) decodeMap(t *ktype, e, p string, d int) string {
	if t.elem.kind == kRaw {
		return fmt.Sprintf("%s.obj(%s, %s).toMap()", c.J, e, p)
	}
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
	case kString, kLong, kBig, kDecimal, kBool:
		return fmt.Sprintf("JsonPrimitive(%s)", v)
	case kNamed, kWrapped:
		return v + ".toJson()"
	case kList:
		if t.elem.kind == kRaw {
			return fmt.Sprintf("JsonArray(%s)", v)
		}
		x := fmt.Sprintf("x%d", d)
		return fmt.Sprintf("JsonArray(%s.map { %s -> %s })", v, x, c.encode(t.elem, x, d+1))
	case kMap:
		if t.elem.kind == kRaw {
			return fmt.Sprintf("JsonObject(%s)", v)
		}
		x := fmt.Sprintf("x%d", d)
		return fmt.Sprintf("JsonObject(%s.mapValues { (_, %s) -> %s })", v, x, c.encode(t.elem, x, d+1))
	}
	return v
}
