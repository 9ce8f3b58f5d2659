package importer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/cetpgen/cetpgen/gen/diag"
	"github.com/cetpgen/cetpgen/gen/emit"
	"github.com/cetpgen/cetpgen/gen/spec"
)

// Limits of the spec's texts (schema/tool.schema.json).
const (
	maxTitle       = 200
	maxDescription = 4000
)

// tool is one imported tool, ready to render.
type tool struct {
	upstream    string // its name in the source
	src         string // JSON pointer of its description in the input
	name        string
	title       string
	description string
	input       any
	output      any
	scope       string
	openOutput  bool // the source gave no output schema
	ann         spec.Annotations
	c           comments
}

// setTexts sets the title and description, cutting what is too long
// and filling what is missing, each choice a comment.
func (t *tool) setTexts(title, description, kind string) {
	title = strings.Join(strings.Fields(title), " ")
	if title == "" {
		title = humanize(t.name)
		t.c.add("/title", markGuess, "the %s has no title; this one is made from the name", kind)
	}
	if utf8.RuneCountInString(title) > maxTitle {
		title = cutRunes(title, maxTitle)
		t.c.add("/title", markGuess, "the title was cut to the spec's %d characters", maxTitle)
	}
	t.title = title
	if strings.TrimSpace(description) == "" {
		description = "The " + kind + " " + t.upstream + " has no description."
		t.c.add("/description", markPlaceholder, "the %s has no description; say what the tool does, for agents and users", kind)
	}
	if utf8.RuneCountInString(description) > maxDescription {
		description = cutRunes(description, maxDescription)
		t.c.add("/description", markGuess, "the description was cut to the spec's %d characters; shorten it by hand", maxDescription)
	}
	t.description = description
}

// setOutput sets the output schema, or one that accepts any object when
// the source gives none.
func (t *tool) setOutput(schema any, given bool) {
	if given {
		t.output = schema
		return
	}
	o := newObject()
	o.set("type", "object")
	t.output, t.openOutput = o, true
	t.c.add("/output_schema", markGuess, "the source describes no output; this schema accepts any object; describe the result")
}

// value is the tool file's content.
func (t *tool) value() *object {
	o := newObject()
	o.set("name", t.name)
	o.set("title", t.title)
	o.set("description", t.description)
	o.set("input_schema", t.input)
	o.set("output_schema", t.output)
	o.set("scopes", []any{t.scope})
	o.set("annotations", annotationsValue(t.ann))
	return o
}

// render writes the tool's file and returns it with the warnings of its
// comments, or an error diagnostic at the tool in the input when it does
// not fit a spec file.
func (t *tool) render(in *document, o Options, command string) (emit.File, diag.List, bool) {
	rel := "tools/" + t.name + ".yaml"
	n := node(t.value())
	attach(n, t.c)
	head := []string{fmt.Sprintf("Imported by cetpgen %s from %s (%s%s).", command, o.Source, o.Source, pointerSuffix(t.src)),
		"Review the lines marked GUESS and PLACEHOLDER, then delete these comments."}
	data, err := encode(head, n)
	var l diag.List
	if err != nil {
		l.Errorf(in.at(t.src), "import-render", "tool %s: %v", t.upstream, err)
		return emit.File{}, l, false
	}
	if len(data) > spec.MaxFileBytes {
		l.Errorf(in.at(t.src), "import-too-large", "tool %s renders to %d bytes, over the %d-byte limit of a spec file; split its schema or move shared parts out", t.upstream, len(data), spec.MaxFileBytes)
		return emit.File{}, l, false
	}
	doc, err := t.roundTrip(o.displayPath(rel), data)
	if err != nil {
		l.Errorf(in.at(t.src), "import-render", "tool %s: %v", t.upstream, err)
		return emit.File{}, l, false
	}
	var rules map[string]string
	if t.openOutput {
		rules = map[string]string{"/output_schema": RuleOpenOutput}
	}
	l.Add(commentDiags(doc, t.c, rules)...)
	return emit.File{Path: rel, Data: data}, l, true
}

// roundTrip parses the rendered file as the spec loader will, checks
// that it holds exactly the values meant, schemas included, and returns
// it.
func (t *tool) roundTrip(path string, data []byte) (*spec.Doc, error) {
	doc, l := spec.Parse(path, "", data)
	if doc == nil || l.HasErrors() {
		return nil, fmt.Errorf("the rendered file does not load: %v", l)
	}
	want, err := canonicalJSON(plain(t.value()))
	if err != nil {
		return nil, err
	}
	got, err := canonicalJSON(doc.Value)
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(want, got) {
		return nil, fmt.Errorf("the rendered file does not hold the imported values (a cetpgen bug)")
	}
	return doc, nil
}

// canonicalJSON encodes v with sorted keys and exact number literals.
func canonicalJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("importer: encode: %w", err)
	}
	return b.Bytes(), nil
}

func pointerSuffix(ptr string) string {
	if ptr == "" {
		return ""
	}
	return "#" + ptr
}

// humanize makes a title from a CETP name: "list_pull_requests" -> "List
// pull requests".
func humanize(name string) string {
	s := strings.ReplaceAll(name, "_", " ")
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func cutRunes(s string, n int) string {
	rs := []rune(s)
	if len(rs) <= n {
		return s
	}
	return strings.TrimSpace(string(rs[:n]))
}
