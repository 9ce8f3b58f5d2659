package validate

import (
	"net/url"
	"strings"

	"github.com/cetpgen/cetpgen/gen/diag"
	"github.com/cetpgen/cetpgen/gen/spec"
)

// Dialect is the only JSON Schema dialect CETP v2 specs use (§3.2).
const Dialect = "https://json-schema.org/draft/2020-12/schema"

// rootBase is the base URI a schema document has when it declares no $id.
const rootBase = "https://cetpgen.invalid/schema"

// Keywords whose values are subschemas, by shape. Other keywords hold data
// (enum, const, default, examples, unknown keywords) and are never searched
// for references.
var (
	schemaKeywords = map[string]bool{
		"additionalProperties": true, "propertyNames": true, "items": true,
		"contains": true, "not": true, "if": true, "then": true, "else": true,
		"unevaluatedItems": true, "unevaluatedProperties": true, "contentSchema": true,
	}
	schemaListKeywords = map[string]bool{"allOf": true, "anyOf": true, "oneOf": true, "prefixItems": true}
	schemaMapKeywords  = map[string]bool{
		"properties": true, "patternProperties": true, "$defs": true,
		"dependentSchemas": true, "definitions": true,
	}
)

// resource is a schema resource: the document root or a subschema with its
// own $id. Local references resolve against resources.
type resource struct {
	node    any
	anchors map[string]bool
}

// refUse is one $ref or $dynamicRef found in a schema document.
type refUse struct {
	ptr    string // where the reference value is, in the spec file
	value  string
	target *url.URL
}

// refScan walks one schema document, collecting its resources, anchors,
// references and dialect declarations.
type refScan struct {
	doc       *spec.Doc
	resources map[string]*resource
	refs      []refUse
	hasID     bool
	diags     diag.List
}

// scanRefs checks the dialect and every reference of the schema at ptr.
func scanRefs(doc *spec.Doc, ptr string, v any) *refScan {
	s := &refScan{doc: doc, resources: map[string]*resource{}}
	base, _ := url.Parse(rootBase)
	s.resources[rootBase] = &resource{node: v, anchors: map[string]bool{}}
	s.walk(v, ptr, base, s.resources[rootBase])
	s.resolveAll()
	return s
}

// walk visits one subschema at ptr, whose references resolve against base
// and whose anchors belong to res.
func (s *refScan) walk(v any, ptr string, base *url.URL, res *resource) {
	obj, ok := v.(map[string]any)
	if !ok {
		return
	}
	if id, ok := obj["$id"].(string); ok {
		base, res = s.enterResource(obj, ptr, id, base)
	}
	s.checkDialect(obj, ptr)
	s.collectAnchors(obj, res)
	for _, kw := range []string{"$ref", "$dynamicRef"} {
		if ref, ok := obj[kw].(string); ok {
			s.addRef(ptr+"/"+spec.EscapeToken(kw), ref, base)
		}
	}
	s.walkChildren(obj, ptr, base, res)
}

func (s *refScan) walkChildren(obj map[string]any, ptr string, base *url.URL, res *resource) {
	for kw, child := range obj {
		p := ptr + "/" + spec.EscapeToken(kw)
		switch {
		case schemaKeywords[kw]:
			s.walk(child, p, base, res)
		case schemaListKeywords[kw]:
			list, _ := child.([]any)
			for i, item := range list {
				s.walk(item, p+"/"+itoa(i), base, res)
			}
		case schemaMapKeywords[kw]:
			m, _ := child.(map[string]any)
			for name, item := range m {
				s.walk(item, p+"/"+spec.EscapeToken(name), base, res)
			}
		}
	}
}

func (s *refScan) enterResource(obj map[string]any, ptr, id string, base *url.URL) (*url.URL, *resource) {
	u, err := base.Parse(id)
	if err != nil {
		s.diags.Errorf(s.doc.Pos(ptr+"/$id"), "schema-invalid", "$id %q is not a valid URI reference: %v", id, err)
		return base, s.resources[rootBase]
	}
	u.Fragment = ""
	s.hasID = true
	res := &resource{node: obj, anchors: map[string]bool{}}
	s.resources[u.String()] = res
	return u, res
}

func (s *refScan) checkDialect(obj map[string]any, ptr string) {
	d, ok := obj["$schema"]
	if !ok {
		return
	}
	if str, _ := d.(string); strings.TrimSuffix(str, "#") != Dialect {
		s.diags.Errorf(s.doc.Pos(ptr+"/$schema"), "schema-dialect",
			"schema dialect %s is not allowed; CETP v2 schemas use %s (or omit $schema)", jsonText(d), Dialect)
	}
}

func (s *refScan) collectAnchors(obj map[string]any, res *resource) {
	for _, kw := range []string{"$anchor", "$dynamicAnchor"} {
		if a, ok := obj[kw].(string); ok {
			res.anchors[a] = true
		}
	}
}

func (s *refScan) addRef(ptr, ref string, base *url.URL) {
	u, err := base.Parse(ref)
	if err != nil {
		s.diags.Errorf(s.doc.Pos(ptr), "schema-invalid", "$ref %q is not a valid URI reference: %v", ref, err)
		return
	}
	s.refs = append(s.refs, refUse{ptr: ptr, value: ref, target: u})
}

// resolveAll checks, once every resource is known, that each reference
// stays inside the document and resolves.
func (s *refScan) resolveAll() {
	for _, r := range s.refs {
		doc := *r.target
		doc.Fragment, doc.RawFragment = "", ""
		res, ok := s.resources[doc.String()]
		if !ok {
			s.diags.Errorf(s.doc.Pos(r.ptr), "schema-ref-nonlocal",
				"$ref %q points outside this schema; CETP v2 allows only references inside the same document (#/$defs/...)", r.value)
			continue
		}
		if !res.resolves(r.target.Fragment) {
			s.diags.Errorf(s.doc.Pos(r.ptr), "schema-ref-unresolved", "$ref %q does not resolve to anything in this schema", r.value)
		}
	}
}

// resolves reports whether fragment (a JSON pointer or an anchor name)
// exists in the resource.
func (r *resource) resolves(fragment string) bool {
	if fragment == "" {
		return true
	}
	if !strings.HasPrefix(fragment, "/") {
		return r.anchors[fragment]
	}
	v := r.node
	for _, tok := range strings.Split(fragment[1:], "/") {
		tok = spec.UnescapeToken(tok)
		switch node := v.(type) {
		case map[string]any:
			child, ok := node[tok]
			if !ok {
				return false
			}
			v = child
		case []any:
			i, ok := atoi(tok)
			if !ok || i >= len(node) {
				return false
			}
			v = node[i]
		default:
			return false
		}
	}
	return true
}
