package importer

import (
	"fmt"

	"github.com/cetpgen/cetpgen/gen/diag"
	"github.com/cetpgen/cetpgen/gen/emit"
	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// mcpTool is one entry of an MCP tools/list result, as found in the input.
type mcpTool struct {
	ptr  string
	name string
	obj  *object
}

// MCP imports the tools of an MCP tools/list result (MCP 2025-06-18 and
// 2025-11-25): a JSON-RPC response, its result object, or the bare tools
// array. data is the input, o the import's options.
func MCP(data []byte, o Options) (*Result, error) {
	if err := checkOptions(o); err != nil {
		return nil, err
	}
	doc, l := parseJSON(o.Source, data)
	if doc == nil {
		return &Result{Diags: l}, nil
	}
	listPtr, list, l := mcpToolList(doc)
	if l.HasErrors() {
		return &Result{Diags: l}, nil
	}
	entries, l := mcpEntries(doc, listPtr, list)
	if l.HasErrors() {
		return &Result{Diags: l}, nil
	}
	upstream := make([]string, len(entries))
	for i, e := range entries {
		upstream[i] = e.name
	}
	names := assignNames(upstream)
	var tools []*tool
	for _, e := range entries {
		t, d := mcpToolOf(doc, e, names[e.name], o)
		l.Add(d...)
		tools = append(tools, t)
	}
	if l.HasErrors() {
		return &Result{Diags: l}, nil
	}
	return finish(doc, tools, o, "MCP server", "import mcp", l)
}

// mcpToolList finds the tools array.
func mcpToolList(doc *document) (string, []any, diag.List) {
	var l diag.List
	if list, ok := doc.value.([]any); ok {
		return "", list, l
	}
	root, ok := doc.value.(*object)
	if !ok {
		l.Errorf(doc.at(""), "import-shape", "expected an MCP tools/list result: an object with \"tools\", a JSON-RPC response with \"result.tools\", or the tools array")
		return "", nil, l
	}
	ptr := ""
	if res, ok := root.get("result"); ok {
		if r, isObj := res.(*object); isObj && !root.has("tools") {
			root, ptr = r, "/result"
		}
	}
	if errv, ok := root.get("error"); ok && !root.has("tools") {
		l.Errorf(doc.at(ptr+"/error"), "import-shape", "the input is a JSON-RPC error response, not a tools/list result: %s", jsonTextOf(errv))
		return "", nil, l
	}
	v, ok := root.get("tools")
	list, isList := v.([]any)
	if !ok || !isList {
		l.Errorf(doc.at(ptr), "import-shape", "expected a \"tools\" array (an MCP tools/list result)")
		return "", nil, l
	}
	if cur, ok := root.get("nextCursor"); ok && cur != nil && cur != "" {
		l.Warnf(doc.at(ptr+"/nextCursor"), "import-partial", "the result has a nextCursor, so the server has more tools than this page; import the concatenated pages to get them all")
	}
	return ptr + "/tools", list, l
}

// mcpEntries checks each entry's name and rejects duplicates.
func mcpEntries(doc *document, listPtr string, list []any) ([]mcpTool, diag.List) {
	var l diag.List
	if len(list) == 0 {
		l.Errorf(doc.at(listPtr), "import-shape", "the tools array is empty; there is nothing to import")
	}
	seen := map[string]string{}
	var out []mcpTool
	for i, v := range list {
		ptr := fmt.Sprintf("%s/%d", listPtr, i)
		obj, ok := v.(*object)
		if !ok {
			l.Errorf(doc.at(ptr), "import-shape", "tool %d is not an object", i)
			continue
		}
		name, isStr := obj.vals["name"].(string)
		switch {
		case !obj.has("name"):
			l.Errorf(doc.at(ptr), "import-shape", "tool %d has no name", i)
			continue
		case !isStr || name == "":
			l.Errorf(doc.at(ptr+"/name"), "import-shape", "tool %d: name must be a non-empty string", i)
			continue
		}
		if prev, dup := seen[name]; dup {
			l.Errorf(doc.at(ptr+"/name"), "import-duplicate-name", "tool name %q is also the name of the tool at %s; MCP tool names are unique, so the input is not one server's list", name, doc.at(prev))
			continue
		}
		seen[name] = ptr
		out = append(out, mcpTool{ptr: ptr, name: name, obj: obj})
	}
	return out, l
}

// mcpToolOf converts one MCP tool.
func mcpToolOf(doc *document, e mcpTool, n naming, o Options) (*tool, diag.List) {
	var l diag.List
	t := &tool{upstream: e.name, src: e.ptr, name: n.name, c: comments{}}
	if n.renamed {
		t.c.add("/name", markNote, "the MCP tool is named %q; CETP names are [a-z][a-z0-9_]{0,63}", e.name)
		l.Warnf(doc.at(e.ptr+"/name"), RuleRenamed, "MCP tool %q is imported as %s (CETP names are [a-z][a-z0-9_]{0,63})", e.name, n.name)
	}
	if n.collision != "" {
		t.c.add("/name", markGuess, "%q also reduces to %s and keeps it (a legal name keeps itself, otherwise the name that sorts first wins); rename one of them", n.collision, legalName(e.name))
		l.Warnf(doc.at(e.ptr+"/name"), RuleCollision, "MCP tools %q and %q both reduce to %s; %q keeps it and %q becomes %s", n.collision, e.name, legalName(e.name), n.collision, e.name, n.name)
	}
	ann, _ := e.obj.get("annotations")
	annObj, _ := ann.(*object)
	title := e.obj.str("title")
	if title == "" && annObj != nil {
		title = annObj.str("title")
	}
	t.setTexts(title, e.obj.str("description"), "MCP tool")
	l.Add(t.setSchemas(doc, e)...)
	t.ann = mapAnnotations(t.name, hintsOf(annObj), t.c)
	read, write := scopeNames(o.product())
	t.scope = write
	if t.ann.Effect == protocol.EffectRead {
		t.scope = read
	}
	if ex, ok := e.obj.get("execution"); ok {
		if exObj, isObj := ex.(*object); isObj && (exObj.str("taskSupport") == "optional" || exObj.str("taskSupport") == "required") {
			t.c.add("/annotations/execution", markGuess, "sync, although the MCP tool supports tasks (taskSupport %s); for a background operation declare the async_operations capability and set sync_or_async", exObj.str("taskSupport"))
		}
	}
	return t, l
}

// setSchemas converts the input and output schema of an MCP tool.
func (t *tool) setSchemas(doc *document, e mcpTool) diag.List {
	var l diag.List
	in, ok := e.obj.get("inputSchema")
	inObj, isObj := in.(*object)
	switch {
	case !ok:
		l.Errorf(doc.at(e.ptr), "import-schema", "MCP tool %q has no inputSchema", e.name)
		return l
	case !isObj:
		l.Errorf(doc.at(e.ptr+"/inputSchema"), "import-schema", "the inputSchema of MCP tool %q is not an object schema", e.name)
		return l
	}
	conv, found := convertSchema(inObj)
	l.Add(t.schemaDiags(doc, e.ptr+"/inputSchema", "/input_schema", found)...)
	convObj := conv.(*object)
	switch typ, has := convObj.get("type"); {
	case !has:
		convObj.keys = append([]string{"type"}, convObj.keys...)
		convObj.vals["type"] = "object"
		t.c.add("/input_schema/type", markGuess, "the inputSchema states no type; MCP requires an object, so type: object was added")
	case typ != "object":
		l.Errorf(doc.at(e.ptr+"/inputSchema/type"), "import-schema", "the inputSchema of MCP tool %q has type %s; MCP and CETP arguments are a JSON object", e.name, jsonString(typ))
	}
	t.input = convObj
	out, given := e.obj.get("outputSchema")
	if given {
		conv, found := convertSchema(out)
		l.Add(t.schemaDiags(doc, e.ptr+"/outputSchema", "/output_schema", found)...)
		out = conv
	}
	t.setOutput(out, given)
	return l
}

// schemaDiags reports the findings of a schema conversion at their place
// in the input and notes them in the tool file.
func (t *tool) schemaDiags(doc *document, inPtr, outPtr string, found []finding) diag.List {
	var l diag.List
	for _, f := range found {
		pos := doc.at(inPtr + f.ptr)
		if f.err {
			l.Errorf(pos, f.rule, "tool %s: %s", t.upstream, f.msg)
			continue
		}
		t.c.add(outPtr+f.ptr, markNote, "%s", f.msg)
		l.Warnf(pos, f.rule, "tool %s: %s", t.upstream, f.msg)
	}
	return l
}

// hintsOf reads the four MCP hints; a hint that is not a boolean counts
// as absent.
func hintsOf(a *object) hints {
	var h hints
	if a == nil {
		return h
	}
	get := func(k string) *bool {
		v, ok := a.vals[k].(bool)
		if !ok {
			return nil
		}
		return &v
	}
	h.readOnly, h.destructive, h.idempotent, h.openWorld = get("readOnlyHint"), get("destructiveHint"), get("idempotentHint"), get("openWorldHint")
	return h
}

// finish renders every tool and provider.yaml. diags are the findings so
// far; a tool that cannot be rendered makes the import fail.
func finish(doc *document, tools []*tool, o Options, kind, command string, l diag.List) (*Result, error) {
	var files []emit.File
	usedRead, usedWrite := false, false
	for _, t := range tools {
		f, d, ok := t.render(doc, o, command)
		l.Add(d...)
		if ok {
			files = append(files, f)
		}
		usedRead = usedRead || t.ann.Effect == protocol.EffectRead
		usedWrite = usedWrite || t.ann.Effect != protocol.EffectRead
	}
	if l.HasErrors() {
		return &Result{Diags: l}, nil
	}
	p, d, err := providerFile(o, kind, usedRead, usedWrite)
	if err != nil {
		return nil, err
	}
	l.Add(d...)
	return &Result{Files: append([]emit.File{p}, files...), Diags: l, Tools: len(tools)}, nil
}

func isAnyObject(v any) bool {
	o, ok := v.(*object)
	return ok && len(o.keys) == 1 && o.vals["type"] == "object"
}

func jsonTextOf(v any) string { return jsonString(plain(v)) }
