package importer

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cetpgen/cetpgen/gen/diag"
	"github.com/cetpgen/cetpgen/gen/spec"
	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// httpMethods are the operations of a path item, in OpenAPI's order.
var httpMethods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// ignoredHeaders are header parameters OpenAPI says are ignored.
var ignoredHeaders = []string{"accept", "content-type", "authorization"}

// operation is one OpenAPI operation, as found in the input.
type operation struct {
	ptr, method, path string
	obj               *object
	params            []any // the path item's parameters, then the operation's
}

// OpenAPI imports every operation of an OpenAPI 3.0 or 3.1 document (JSON
// or YAML) as a tool: effect from the HTTP method, input from the
// parameters and the JSON request body, output from the first 2xx JSON
// response. Schemas under #/components/schemas that an operation uses are
// carried into the tool's own $defs.
func OpenAPI(data []byte, o Options) (*Result, error) {
	if err := checkOptions(o); err != nil {
		return nil, err
	}
	doc, l := parseDocument(o.Source, data)
	if doc == nil {
		return &Result{Diags: l}, nil
	}
	root, v30, l := openAPIRoot(doc)
	if l.HasErrors() {
		return &Result{Diags: l}, nil
	}
	ops, l := operations(doc, root)
	if l.HasErrors() {
		return &Result{Diags: l}, nil
	}
	upstream := make([]string, len(ops))
	for i, op := range ops {
		upstream[i] = op.upstreamName()
	}
	names := assignNames(upstream)
	var tools []*tool
	for i, op := range ops {
		r := &refInliner{doc: doc, root: root}
		t, d := op.tool(r, names[upstream[i]], v30, o)
		l.Add(d...)
		tools = append(tools, t)
	}
	if l.HasErrors() {
		return &Result{Diags: l}, nil
	}
	return finish(doc, tools, o, "OpenAPI document", "import openapi", l)
}

// openAPIRoot checks the document's version.
func openAPIRoot(doc *document) (*object, bool, diag.List) {
	var l diag.List
	root, ok := doc.value.(*object)
	if !ok {
		l.Errorf(doc.at(""), "import-shape", "expected an OpenAPI document: an object with \"openapi\" and \"paths\"")
		return nil, false, l
	}
	version := root.str("openapi")
	switch {
	case root.has("swagger"):
		l.Errorf(doc.at("/swagger"), "import-shape", "this is a Swagger 2.0 document; convert it to OpenAPI 3 first")
	case strings.HasPrefix(version, "3.0."), strings.HasPrefix(version, "3.1."):
	default:
		l.Errorf(doc.at("/openapi"), "import-shape", "openapi %q is not a version this importer reads (3.0.x or 3.1.x)", version)
	}
	return root, strings.HasPrefix(version, "3.0."), l
}

// operations lists the operations in document order.
func operations(doc *document, root *object) ([]operation, diag.List) {
	var l diag.List
	pv, _ := root.get("paths")
	paths, ok := pv.(*object)
	if !ok || len(paths.keys) == 0 {
		l.Errorf(doc.at("/paths"), "import-shape", "the document has no paths, so there is nothing to import")
		return nil, l
	}
	var out []operation
	for _, p := range paths.keys {
		itemPtr := "/paths/" + spec.EscapeToken(p)
		item, ok := paths.vals[p].(*object)
		if !ok {
			continue
		}
		if item.has("$ref") {
			l.Errorf(doc.at(itemPtr+"/$ref"), "import-remote-ref", "path item %s is a $ref; inline it", p)
			continue
		}
		shared, _ := item.vals["parameters"].([]any)
		for _, m := range httpMethods {
			op, ok := item.vals[m].(*object)
			if !ok {
				continue
			}
			own, _ := op.vals["parameters"].([]any)
			out = append(out, operation{ptr: itemPtr + "/" + m, method: m, path: p, obj: op, params: append(slices.Clone(shared), own...)})
		}
	}
	if len(out) == 0 && !l.HasErrors() {
		l.Errorf(doc.at("/paths"), "import-shape", "the paths hold no operations")
	}
	return out, l
}

// upstreamName is the operationId, or the method and the path's words
// ("get /users/{id}" -> "get_users_by_id").
func (op operation) upstreamName() string {
	if id := op.obj.str("operationId"); id != "" {
		return id
	}
	var words []string
	for _, seg := range strings.Split(op.path, "/") {
		switch {
		case seg == "":
		case strings.HasPrefix(seg, "{"):
			words = append(words, "by", strings.Trim(seg, "{}"))
		default:
			words = append(words, seg)
		}
	}
	return op.method + "_" + strings.Join(words, "_")
}

// tool converts the operation.
func (op operation) tool(r *refInliner, n naming, v30 bool, o Options) (*tool, diag.List) {
	var l diag.List
	t := &tool{upstream: op.upstreamName(), src: op.ptr, name: n.name, c: comments{}}
	if op.obj.str("operationId") == "" {
		t.c.add("/name", markGuess, "the operation has no operationId; the name comes from %s %s", strings.ToUpper(op.method), op.path)
	} else if n.renamed {
		t.c.add("/name", markNote, "the operationId is %q; CETP names are [a-z][a-z0-9_]{0,63}", t.upstream)
		l.Warnf(r.doc.at(op.ptr+"/operationId"), RuleRenamed, "operation %q is imported as %s (CETP names are [a-z][a-z0-9_]{0,63})", t.upstream, n.name)
	}
	if n.collision != "" {
		t.c.add("/name", markGuess, "%q also reduces to %s and keeps it (a legal name keeps itself, otherwise the name that sorts first wins); rename one of them", n.collision, legalName(t.upstream))
		l.Warnf(r.doc.at(op.ptr), RuleCollision, "operations %q and %q both reduce to %s; %q keeps it and %q becomes %s", n.collision, t.upstream, legalName(t.upstream), n.collision, t.upstream, n.name)
	}
	summary, description := op.obj.str("summary"), op.obj.str("description")
	if description == "" {
		description = summary
	}
	t.setTexts(summary, description, "operation")
	in, d := op.input(r, t.c)
	l.Add(d...)
	out, given, d := op.output(r, t.c)
	l.Add(d...)
	l.Add(t.finishSchemas(r, in, out, given, v30)...)
	t.ann = methodAnnotations(op.method, t.c)
	read, write := scopeNames(o.product())
	t.scope = write
	if t.ann.Effect == protocol.EffectRead {
		t.scope = read
	}
	return t, l
}

// input builds the args schema: one property per parameter and "body"
// for the request body, closed (the operation accepts nothing else).
func (op operation) input(r *refInliner, c comments) (*object, diag.List) {
	var l diag.List
	in := newObject()
	in.set("type", "object")
	props := newObject()
	var required []any
	for i, pv := range op.params {
		_, p := r.resolve(pv, fmt.Sprintf("%s/parameters/%d", op.ptr, i), &l)
		if p == nil {
			continue
		}
		name, where := p.str("name"), p.str("in")
		if where == "header" && slices.Contains(ignoredHeaders, strings.ToLower(name)) {
			continue
		}
		prop := name
		if props.has(prop) {
			prop = where + "_" + name
			c.add("/input_schema/properties/"+spec.EscapeToken(prop), markGuess, "the %s parameter %q shares its name with another parameter, so its argument is %q", where, name, prop)
		}
		props.set(prop, paramSchema(p))
		if req, _ := p.vals["required"].(bool); req || where == "path" {
			required = append(required, prop)
		}
	}
	if body, ok := op.obj.get("requestBody"); ok {
		ptr, b := r.resolve(body, op.ptr+"/requestBody", &l)
		if b != nil {
			if s, media := contentSchema(b); s != nil {
				if !props.has("body") {
					props.set("body", s)
					c.add("/input_schema/properties/body", markNote, "the request body (%s)", media)
					if req, _ := b.vals["required"].(bool); req {
						required = append(required, "body")
					}
				} else {
					l.Errorf(r.doc.at(ptr), "import-shape", "a parameter is named \"body\", so the request body has no argument name; rename the parameter")
				}
			}
		}
	}
	in.set("properties", props)
	if len(required) > 0 {
		in.set("required", required)
	}
	in.set("additionalProperties", false)
	return in, l
}

// paramSchema is a parameter's schema with its description.
func paramSchema(p *object) any {
	s, ok := p.get("schema")
	if !ok {
		if c, isObj := p.vals["content"].(*object); isObj {
			s, _ = contentSchema(&object{keys: []string{"content"}, vals: map[string]any{"content": c}})
		}
	}
	if s == nil {
		s = newObject()
	}
	desc := p.str("description")
	if so, isObj := s.(*object); isObj && desc != "" && !so.has("description") && !so.has("$ref") {
		cp := &object{keys: slices.Clone(so.keys), vals: map[string]any{}}
		for k, v := range so.vals {
			cp.vals[k] = v
		}
		cp.set("description", desc)
		return cp
	}
	return s
}

// contentSchema is the schema of the JSON media type of a body or
// response (application/json, then any +json type, then the first).
func contentSchema(o *object) (any, string) {
	cv, _ := o.get("content")
	content, ok := cv.(*object)
	if !ok || len(content.keys) == 0 {
		return nil, ""
	}
	pick := content.keys[0]
	for _, k := range content.keys {
		if k == "application/json" || (strings.HasSuffix(k, "+json") && pick != "application/json") {
			pick = k
			if k == "application/json" {
				break
			}
		}
	}
	m, _ := content.vals[pick].(*object)
	if m == nil {
		return nil, pick
	}
	s, _ := m.get("schema")
	return s, pick
}

// output is the schema of the first 2xx response, in code order.
func (op operation) output(r *refInliner, c comments) (any, bool, diag.List) {
	var l diag.List
	rv, _ := op.obj.get("responses")
	resp, _ := rv.(*object)
	if resp == nil {
		return nil, false, l
	}
	var codes []string
	for _, k := range resp.keys {
		if strings.HasPrefix(k, "2") {
			codes = append(codes, k)
		}
	}
	slices.Sort(codes) // "200" < "201" < "2XX"
	for _, code := range codes {
		_, rs := r.resolve(resp.vals[code], op.ptr+"/responses/"+code, &l)
		if rs == nil {
			continue
		}
		s, media := contentSchema(rs)
		if s == nil && media == "" {
			empty := newObject()
			empty.set("type", "object")
			empty.set("additionalProperties", false)
			c.add("/output_schema", markGuess, "the %s response has no content; the tool returns an empty object", code)
			return empty, true, l
		}
		if s != nil {
			if media != "application/json" {
				c.add("/output_schema", markNote, "the schema of the %s response's %s content", code, media)
			}
			return s, true, l
		}
	}
	return nil, false, l
}

// finishSchemas inlines component references, converts OpenAPI 3.0
// schema forms and carries both schemas into 2020-12.
func (t *tool) finishSchemas(r *refInliner, in *object, out any, given, v30 bool) diag.List {
	var l diag.List
	in = r.inline(in, &l).(*object)
	if given {
		out = r.inline(out, &l)
	}
	if v30 {
		in = openAPI30(in, "/input_schema", t.c).(*object)
		if given {
			out = openAPI30(out, "/output_schema", t.c)
		}
	}
	conv, found := convertSchema(in)
	for _, f := range found {
		l.Add(t.findingDiag(r.doc, f, "/input_schema")...)
	}
	t.input = conv
	if given {
		conv, found = convertSchema(out)
		for _, f := range found {
			l.Add(t.findingDiag(r.doc, f, "/output_schema")...)
		}
		out = conv
	}
	t.setOutput(out, given)
	return l
}

// findingDiag reports a conversion finding of a built schema at the
// operation (its place in the input is not one node).
func (t *tool) findingDiag(doc *document, f finding, outPtr string) diag.List {
	var l diag.List
	if f.err {
		l.Errorf(doc.at(t.src), f.rule, "operation %s: %s (at %s%s of the tool)", t.upstream, f.msg, outPtr, f.ptr)
		return l
	}
	t.c.add(outPtr+f.ptr, markNote, "%s", f.msg)
	return l
}

// methodAnnotations derives the annotations from the HTTP method (RFC
// 9110: GET, HEAD, OPTIONS and TRACE are safe; PUT and DELETE are
// idempotent).
func methodAnnotations(method string, c comments) spec.Annotations {
	a := spec.Annotations{Execution: protocol.ExecSync}
	switch method {
	case "get", "head", "options", "trace":
		a.Effect, a.Risk, a.Idempotent = protocol.EffectRead, protocol.RiskLow, true
		c.add("/annotations/risk", markGuess, "low, as for any read; raise it if reading exposes sensitive data")
	case "post":
		a.Effect, a.Risk = protocol.EffectCreate, protocol.RiskModerate
		c.add("/annotations/effect", markGuess, "create, from POST; POST also runs actions, which are update or transaction")
		c.add("/annotations/risk", markGuess, "moderate, from the method")
	case "put", "patch":
		a.Effect, a.Risk, a.Idempotent = protocol.EffectUpdate, protocol.RiskModerate, method == "put"
		c.add("/annotations/risk", markGuess, "moderate, from the method")
		if method == "put" {
			c.add("/annotations/destructive", markGuess, "false, although PUT replaces the whole resource")
		}
	case "delete":
		a.Effect, a.Risk, a.Destructive, a.Idempotent = protocol.EffectDelete, protocol.RiskHigh, true, true
		c.add("/annotations/destructive", markGuess, "true, from DELETE; set false if the resource can be restored")
	}
	c.add("/annotations/open_world", markGuess, "false: the API is taken to be the Provider's own service; set true if it reaches third parties")
	a.Confirmation = confirmation(a, c)
	return a
}
