package importer

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/cetpgen/cetpgen/gen/spec"
	"github.com/cetpgen/cetpgen/gen/validate"
)

// finding is something the schema conversion met, at a JSON pointer
// relative to the schema's root.
type finding struct {
	ptr, rule, msg string
	err            bool
}

// Keywords whose value is one subschema, a map of subschemas or a list of
// subschemas (draft-04 to 2020-12).
var (
	schemaKeywords = []string{"additionalProperties", "contains", "propertyNames", "not", "if", "then", "else",
		"unevaluatedItems", "unevaluatedProperties", "contentSchema"}
	schemaMapKeywords  = []string{"properties", "patternProperties", "$defs", "dependentSchemas"}
	schemaListKeywords = []string{"allOf", "anyOf", "oneOf", "prefixItems"}
)

// oldDialects are the $schema values of drafts before 2020-12 whose
// forms the conversion rewrites.
var oldDialects = []string{"json-schema.org/draft-04/schema", "json-schema.org/draft-06/schema",
	"json-schema.org/draft-07/schema", "json-schema.org/draft/2019-09/schema"}

// convertSchema carries schema over into JSON Schema 2020-12. It keeps
// every keyword and literal and rewrites only the forms 2020-12 spells
// differently: array "items" and "additionalItems" become "prefixItems"
// and "items", "definitions" becomes "$defs" (and the $refs into it
// follow), "dependencies" splits into "dependentRequired" and
// "dependentSchemas", draft-04's boolean exclusiveMinimum/Maximum take
// the bound's number, and a $schema of another dialect is dropped. Each
// rewrite is a NOTE finding; a $ref to anything outside the schema is an
// error finding (CETP v2 §3.2: schemas do not refer to network resources).
func convertSchema(schema any) (any, []finding) {
	c := &converter{ids: map[string]bool{}, renamed: map[string]bool{}}
	c.collectIDs(schema)
	c.old = declaresOldDialect(schema)
	out := c.schema(schema, "")
	c.rewriteRefs(out)
	return out, c.found
}

type converter struct {
	found   []finding
	ids     map[string]bool // every $id in the schema, for embedded resources
	renamed map[string]bool // schema pointers of "definitions" moved to "$defs"
	old     bool            // the root declares a draft before 2020-12
}

func (c *converter) note(ptr, rule, format string, args ...any) {
	c.found = append(c.found, finding{ptr: ptr, rule: rule, msg: fmt.Sprintf(format, args...)})
}

func (c *converter) fail(ptr, rule, format string, args ...any) {
	c.found = append(c.found, finding{ptr: ptr, rule: rule, msg: fmt.Sprintf(format, args...), err: true})
}

func declaresOldDialect(schema any) bool {
	obj, ok := schema.(*object)
	if !ok {
		return false
	}
	s := obj.str("$schema")
	return slices.ContainsFunc(oldDialects, func(d string) bool { return strings.Contains(s, d) })
}

// schema converts one schema at ptr; a boolean or other non-object value
// is kept as it is (the validator judges it).
func (c *converter) schema(v any, ptr string) any {
	obj, ok := v.(*object)
	if !ok {
		return v
	}
	out := newObject()
	for _, k := range obj.keys {
		out.set(k, c.keyword(obj, k, ptr))
	}
	c.dialect(out, ptr)
	c.items(out, ptr)
	c.definitions(out, ptr)
	c.dependencies(out, ptr)
	c.exclusiveBounds(out, ptr)
	c.refs(out, ptr)
	return out
}

// keyword converts the value of keyword k of obj.
func (c *converter) keyword(obj *object, k, ptr string) any {
	v := obj.vals[k]
	at := ptr + "/" + spec.EscapeToken(k)
	switch {
	case slices.Contains(schemaKeywords, k):
		return c.schema(v, at)
	case slices.Contains(schemaMapKeywords, k) || k == "definitions":
		return c.schemaMap(v, at)
	case slices.Contains(schemaListKeywords, k):
		return c.schemaList(v, at)
	case k == "items" || k == "additionalItems":
		if _, list := v.([]any); list {
			return c.schemaList(v, at)
		}
		return c.schema(v, at)
	case k == "dependencies":
		return c.dependencyMap(v, at)
	}
	return v
}

func (c *converter) schemaMap(v any, ptr string) any {
	m, ok := v.(*object)
	if !ok {
		return v
	}
	out := newObject()
	for _, k := range m.keys {
		out.set(k, c.schema(m.vals[k], ptr+"/"+spec.EscapeToken(k)))
	}
	return out
}

func (c *converter) schemaList(v any, ptr string) any {
	list, ok := v.([]any)
	if !ok {
		return v
	}
	out := make([]any, len(list))
	for i, s := range list {
		out[i] = c.schema(s, fmt.Sprintf("%s/%d", ptr, i))
	}
	return out
}

// dependencyMap converts the schema values of draft-07 "dependencies"
// (its array values are property lists).
func (c *converter) dependencyMap(v any, ptr string) any {
	m, ok := v.(*object)
	if !ok {
		return v
	}
	out := newObject()
	for _, k := range m.keys {
		if _, list := m.vals[k].([]any); list {
			out.set(k, m.vals[k])
			continue
		}
		out.set(k, c.schema(m.vals[k], ptr+"/"+spec.EscapeToken(k)))
	}
	return out
}

// dialect drops a $schema that names another dialect than 2020-12.
func (c *converter) dialect(obj *object, ptr string) {
	d, ok := obj.get("$schema")
	if !ok {
		return
	}
	if s, _ := d.(string); strings.TrimSuffix(s, "#") == validate.Dialect {
		return
	}
	obj.del("$schema")
	c.note(ptr+"/$schema", "import-schema-dialect", "dropped \"$schema\": %s; CETP v2 schemas are JSON Schema 2020-12 and the draft forms below were converted", jsonString(d))
}

// items rewrites the array form of "items" (and "additionalItems").
func (c *converter) items(obj *object, ptr string) {
	v, _ := obj.get("items")
	_, isList := v.([]any)
	hasExtra := obj.has("additionalItems")
	switch {
	case isList:
		if obj.has("prefixItems") {
			c.fail(ptr+"/items", "import-schema-draft", "array \"items\" next to \"prefixItems\" has no 2020-12 form; keep one of them")
			return
		}
		obj.rename("items", "prefixItems")
		msg := "array \"items\" became \"prefixItems\" (2020-12)"
		if hasExtra {
			obj.rename("additionalItems", "items")
			msg += ", and \"additionalItems\" became \"items\""
		}
		c.note(ptr+"/items", "import-schema-draft", "%s", msg)
	case hasExtra:
		obj.del("additionalItems")
		c.note(ptr+"/additionalItems", "import-schema-draft", "dropped \"additionalItems\": without array \"items\" it constrained nothing")
	}
}

// definitions renames "definitions" to "$defs".
func (c *converter) definitions(obj *object, ptr string) {
	if !obj.has("definitions") {
		return
	}
	if obj.has("$defs") {
		c.note(ptr+"/definitions", "import-schema-draft", "kept \"definitions\" as it is: the schema also has \"$defs\"")
		return
	}
	obj.rename("definitions", "$defs")
	c.renamed[ptr+"/definitions"] = true
	c.note(ptr+"/definitions", "import-schema-draft", "\"definitions\" became \"$defs\" (2020-12), and the $refs into it follow")
}

// dependencies splits draft-07 "dependencies".
func (c *converter) dependencies(obj *object, ptr string) {
	v, _ := obj.get("dependencies")
	deps, ok := v.(*object)
	if !ok {
		return
	}
	if obj.has("dependentRequired") || obj.has("dependentSchemas") {
		c.note(ptr+"/dependencies", "import-schema-draft", "kept \"dependencies\" as it is: the schema also has its 2020-12 forms")
		return
	}
	req, schemas := newObject(), newObject()
	for _, k := range deps.keys {
		if _, list := deps.vals[k].([]any); list {
			req.set(k, deps.vals[k])
		} else {
			schemas.set(k, deps.vals[k])
		}
	}
	obj.del("dependencies")
	if len(req.keys) > 0 {
		obj.set("dependentRequired", req)
	}
	if len(schemas.keys) > 0 {
		obj.set("dependentSchemas", schemas)
	}
	c.note(ptr+"/dependencies", "import-schema-draft", "\"dependencies\" became \"dependentRequired\"/\"dependentSchemas\" (2020-12)")
}

// exclusiveBounds rewrites draft-04's boolean exclusiveMinimum and
// exclusiveMaximum.
func (c *converter) exclusiveBounds(obj *object, ptr string) {
	for _, b := range [][2]string{{"exclusiveMinimum", "minimum"}, {"exclusiveMaximum", "maximum"}} {
		v, _ := obj.get(b[0])
		flag, ok := v.(bool)
		if !ok {
			continue
		}
		bound, hasBound := obj.get(b[1])
		obj.del(b[0])
		if flag && hasBound {
			obj.rename(b[1], b[0])
			obj.set(b[0], bound)
		}
		c.note(ptr+"/"+b[0], "import-schema-draft", "draft-04 boolean %q became the 2020-12 form", b[0])
	}
}

// refs fails on references that leave the schema and flags $ref siblings,
// which drafts before 2019-09 ignored and 2020-12 applies.
func (c *converter) refs(obj *object, ptr string) {
	for _, kw := range []string{"$ref", "$dynamicRef", "$recursiveRef"} {
		v, _ := obj.get(kw)
		ref, ok := v.(string)
		if !ok {
			continue
		}
		if !c.local(ref) {
			c.fail(ptr+"/"+spec.EscapeToken(kw), "import-remote-ref",
				"%s %q refers to a resource outside this schema; CETP v2 schemas must not reference network or file resources (§3.2): inline the referenced schema under $defs", kw, ref)
		}
	}
	if obj.has("$ref") && c.old && len(obj.keys) > 1 {
		c.note(ptr+"/$ref", "import-ref-siblings",
			"the keywords next to \"$ref\" were ignored by the schema's draft and apply in 2020-12; check that they still describe the same values")
	}
}

// local reports whether ref resolves inside the schema: a fragment, or an
// embedded resource's $id (with or without a fragment).
func (c *converter) local(ref string) bool {
	if strings.HasPrefix(ref, "#") {
		return true
	}
	base, _, _ := strings.Cut(ref, "#")
	return c.ids[base]
}

// collectIDs records every $id string in v.
func (c *converter) collectIDs(v any) {
	switch x := v.(type) {
	case *object:
		if id := x.str("$id"); id != "" {
			base, _, _ := strings.Cut(id, "#")
			c.ids[base] = true
			if u, err := url.Parse(base); err == nil && u.Path != "" {
				c.ids[u.Path[strings.LastIndexByte(u.Path, '/')+1:]] = true
			}
		}
		for _, e := range x.vals {
			c.collectIDs(e)
		}
	case []any:
		for _, e := range x {
			c.collectIDs(e)
		}
	}
}

// rewriteRefs points every "#/…/definitions/…" $ref at the renamed
// "$defs".
func (c *converter) rewriteRefs(v any) {
	if len(c.renamed) == 0 {
		return
	}
	switch x := v.(type) {
	case *object:
		for _, k := range x.keys {
			if s, ok := x.vals[k].(string); ok && k == "$ref" && strings.HasPrefix(s, "#/") {
				x.vals[k] = c.movedPointer(s)
				continue
			}
			c.rewriteRefs(x.vals[k])
		}
	case []any:
		for _, e := range x {
			c.rewriteRefs(e)
		}
	}
}

// movedPointer rewrites the tokens of a "#/…" reference that pass through
// a renamed "definitions".
func (c *converter) movedPointer(ref string) string {
	toks := strings.Split(ref[2:], "/")
	orig := ""
	for i, t := range toks {
		if t == "definitions" && c.renamed[orig+"/definitions"] {
			toks[i] = "$defs"
		}
		orig += "/" + t
	}
	return "#/" + strings.Join(toks, "/")
}

func jsonString(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
