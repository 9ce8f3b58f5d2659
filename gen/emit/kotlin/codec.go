package kotlin

import (
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
		v := "n" + dec(d)
		return c.J + ".orNull(" + e + ") { " + v + " -> " + c.decodeBase(t, v, p, d+1) + " }"
	}
	return c.decodeBase(t, e, p, d)
}

// checks name the shape check of the support object for simple kinds.
var checks = map[kind]string{kString: "string", kLong: "long", kBig: "bigInteger", kDecimal: "decimal", kBool: "bool"}

// decodeBase is decode without the null check.
func (c codec) decodeBase(t *ktype, e, p string, d int) string {
	switch {
	case t.kind == kLong && t.longs != nil:
		return c.J + ".longIn(" + e + ", " + p + ", setOf(" + strings.Join(t.longs, ", ") + "))"
	case t.kind == kString && t.constant != nil:
		return c.J + ".constant(" + e + ", " + p + ", " + kotlinString(*t.constant) + ")"
	case checks[t.kind] != "":
		return c.J + "." + checks[t.kind] + "(" + e + ", " + p + ")"
	case t.kind == kNamed || t.kind == kWrapped:
		return c.qual + t.name + ".fromJson(" + e + ", " + p + ")"
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
		return c.J + ".arr(" + e + ", " + p + ").toList()"
	}
	i, v := "i"+dec(d), "e"+dec(d)
	at := c.J + ".at(" + p + ", " + i + ")"
	return c.J + ".arr(" + e + ", " + p + ").mapIndexed { " + i + ", " + v + " -> " + c.decode(t.elem, v, at, d+1) + " }"
}

// decodeMap decodes an object member by member, keeping member order.
func (c codec) decodeMap(t *ktype, e, p string, d int) string {
	if t.elem.kind == kRaw {
		return c.J + ".obj(" + e + ", " + p + ").toMap()"
	}
	k, v := "k"+dec(d), "v"+dec(d)
	at := c.J + ".at(" + p + ", " + k + ")"
	return c.J + ".obj(" + e + ", " + p + ").mapValues { (" + k + ", " + v + ") -> " + c.decode(t.elem, v, at, d+1) + " }"
}

// encode returns an expression converting the Kotlin value expression v of
// type t to a JsonElement.
func (c codec) encode(t *ktype, v string, d int) string {
	if t.nullable {
		x := "x" + dec(d)
		return "(" + v + "?.let { " + x + " -> " + c.encodeBase(t, x, d+1) + " } ?: JsonNull)"
	}
	return c.encodeBase(t, v, d)
}

// encodeBase is encode for a value known not to be null.
func (c codec) encodeBase(t *ktype, v string, d int) string {
	switch t.kind {
	case kString, kLong, kBig, kDecimal, kBool:
		return "JsonPrimitive(" + v + ")"
	case kNamed, kWrapped:
		return v + ".toJson()"
	case kList:
		if t.elem.kind == kRaw {
			return "JsonArray(" + v + ")"
		}
		x := "x" + dec(d)
		return "JsonArray(" + v + ".map { " + x + " -> " + c.encode(t.elem, x, d+1) + " })"
	case kMap:
		if t.elem.kind == kRaw {
			return "JsonObject(" + v + ")"
		}
		x := "x" + dec(d)
		return "JsonObject(" + v + ".mapValues { (_, " + x + ") -> " + c.encode(t.elem, x, d+1) + " })"
	}
	return v
}
