package importer

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/corpus/mcp-tools.json and the goldens of testdata/golden")

// corpusFile is the corpus of realistic MCP tools the end-to-end test
// imports; TestCorpusFile -update writes it from corpusTools.
const corpusFile = "testdata/corpus/mcp-tools.json"

// family is a group of tools of one domain whose names share prefixes,
// as real servers name them (list_pods, list_pods_in_namespace, …).
type family struct {
	prefix string
	nouns  []string
	verbs  []string
	style  func(verb, noun string) string
}

func snake(v, n string) string { return v + "_" + n }

func camel(v, n string) string {
	var b strings.Builder
	b.WriteString(v)
	for _, w := range strings.Split(n, "_") {
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	return b.String()
}

func kebab(v, n string) string { return v + "-" + strings.ReplaceAll(n, "_", "-") }

func dotted(v, n string) string { return strings.ReplaceAll(n, "_", ".") + "." + v }

var families = []family{
	{"", []string{"item", "item_title", "item_status", "item_labels"}, []string{"get", "update", "delete"}, snake},
	{"", []string{"pods", "pods_in_namespace", "pod", "pod_logs", "deployments", "deployment", "deployment_rollout"}, []string{"list", "get", "delete", "restart"}, snake},
	{"", []string{"profile", "profile_details", "profile_avatar"}, []string{"get", "update"}, snake},
	{"", []string{"pull_request", "pull_request_title", "pull_request_reviewers", "pull_request_files", "issue", "issue_comment", "issue_labels"}, []string{"create", "get", "update", "list", "close"}, camel},
	{"", []string{"calendar_event", "calendar_event_attendees", "calendar"}, []string{"create", "list", "delete", "move"}, kebab},
	{"", []string{"file", "file_metadata", "folder", "folder_tree"}, []string{"read", "write", "delete", "search"}, dotted},
	{"", []string{"payment", "refund", "invoice", "invoice_line"}, []string{"create", "get", "list", "refund", "transfer"}, snake},
	{"", []string{"note", "notebook", "note_tag"}, []string{"add", "find", "remove", "rename"}, snake},
	{"repo_", []string{"branch", "branch_protection", "commit", "commit_status", "release", "release_asset"}, []string{"list", "get", "create", "delete"}, snake},
	{"", []string{"message", "message_thread", "channel", "channel_members"}, []string{"send", "list", "search", "pin"}, camel},
	{"", []string{"user", "user_roles", "team", "team_members"}, []string{"invite", "get", "list", "remove"}, snake},
}

// hintValues are the three states of one MCP hint: absent, true, false.
var hintValues = []any{nil, true, false}

// corpusTools builds the corpus: every family's verb × noun, each with an
// input schema of one of several shapes, an output schema for about half
// and the MCP hints cycling through all 81 combinations of the four.
func corpusTools() []map[string]any {
	var tools []map[string]any
	seen := map[string]bool{}
	for _, f := range families {
		for _, n := range f.nouns {
			for _, v := range f.verbs {
				name := f.style(v, f.prefix+n)
				if seen[name] {
					continue
				}
				seen[name] = true
				tools = append(tools, corpusTool(len(tools), name, v, n))
			}
		}
	}
	// Names that reduce to one CETP name, and odd spellings.
	for _, name := range []string{"Get_Item", "get.item", "getItem", "HTTPServerStatus", "2fa_verify", "ünïcode_tool", "a" + strings.Repeat("b", 80)} {
		tools = append(tools, corpusTool(len(tools), name, "get", "item"))
	}
	// Property names that collide with the CLI's own flags, with Go and
	// Kotlin keywords, with each other once case-folded, or are empty.
	odd := corpusTool(len(tools), "odd_property_names", "get", "item")
	props := map[string]any{}
	for _, p := range []string{"socket", "json", "help", "timeout", "", "a.b", "ünï", "fooBar", "foo_bar", "type", "class", "Type", "func", "val"} {
		props[p] = map[string]any{"type": "string"}
	}
	odd["inputSchema"] = obj(props, nil, false)
	return append(tools, odd)
}

func corpusTool(i int, name, verb, noun string) map[string]any {
	t := map[string]any{
		"name":        name,
		"description": fmt.Sprintf("%s the %s. Part of the corpus of realistic tools (%d).", strings.ToUpper(verb[:1])+verb[1:], strings.ReplaceAll(noun, "_", " "), i),
		"inputSchema": corpusInput(i, noun),
	}
	if i%3 != 0 {
		t["title"] = strings.ToUpper(verb[:1]) + verb[1:] + " " + strings.ReplaceAll(noun, "_", " ")
	}
	if i%2 == 0 {
		t["outputSchema"] = corpusOutput(i, noun)
	}
	a := map[string]any{}
	c := i % 81
	for _, k := range []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"} {
		if v := hintValues[c%3]; v != nil {
			a[k] = v
		}
		c /= 3
	}
	if len(a) > 0 || i%5 == 0 {
		t["annotations"] = a
	}
	return t
}

// corpusInput is one of six input shapes, by i.
func corpusInput(i int, noun string) map[string]any {
	id := map[string]any{"type": "string", "description": "The " + noun + " id.", "minLength": 1}
	switch i % 6 {
	case 0: // plain, closed, with an enum
		return obj(map[string]any{"id": id, "order": map[string]any{"type": "string", "enum": []any{"asc", "desc"}, "default": "asc"},
			"limit": map[string]any{"type": "integer", "minimum": 1, "maximum": 100}}, []any{"id"}, false)
	case 1: // anyOf input and a type list
		return obj(map[string]any{
			"target": map[string]any{"anyOf": []any{id, map[string]any{"type": "integer", "minimum": 0}}},
			"note":   map[string]any{"type": []any{"string", "null"}, "maxLength": 500},
		}, []any{"target"}, nil)
	case 2: // deep nesting
		return obj(map[string]any{"filter": deep(9)}, nil, false)
	case 3: // draft-07 forms
		return map[string]any{
			"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
			"properties": map[string]any{
				"pair":  map[string]any{"type": "array", "items": []any{map[string]any{"type": "string"}, map[string]any{"type": "number"}}, "additionalItems": false},
				"owner": map[string]any{"$ref": "#/definitions/owner"},
			},
			"definitions":          map[string]any{"owner": map[string]any{"type": "object", "properties": map[string]any{"login": map[string]any{"type": "string"}}}},
			"additionalProperties": false,
		}
	case 4: // a schema over 10 KB
		return big(noun)
	}
	return map[string]any{"type": "object"} // no arguments, no constraints
}

func obj(props map[string]any, required []any, additional any) map[string]any {
	o := map[string]any{"type": "object", "properties": props}
	if required != nil {
		o["required"] = required
	}
	if additional != nil {
		o["additionalProperties"] = additional
	}
	return o
}

func deep(n int) map[string]any {
	if n == 0 {
		return map[string]any{"type": "string", "enum": []any{"open", "closed", "all"}}
	}
	return obj(map[string]any{"level": deep(n - 1), "weight": map[string]any{"type": "number"}}, nil, nil)
}

func big(noun string) map[string]any {
	props := map[string]any{}
	for k := range 60 {
		props[fmt.Sprintf("field_%02d", k)] = map[string]any{
			"type":        []any{"string", "integer", "boolean"}[k%3],
			"description": fmt.Sprintf("Field %d of the %s record. %s", k, noun, strings.Repeat("It is described at length, as generated API schemas are. ", 3)),
		}
	}
	return obj(props, []any{"field_00"}, false)
}

func corpusOutput(i int, noun string) map[string]any {
	if i%4 == 0 {
		return obj(map[string]any{"items": map[string]any{"type": "array", "items": obj(map[string]any{"id": map[string]any{"type": "string"}}, []any{"id"}, nil)},
			"next": map[string]any{"type": []any{"string", "null"}}}, []any{"items"}, nil)
	}
	return obj(map[string]any{"id": map[string]any{"type": "string"}, noun: map[string]any{"type": "object"}}, []any{"id"}, nil)
}

// TestCorpusFile keeps the committed corpus equal to corpusTools, and
// checks that it is as large and varied as the end-to-end test needs.
func TestCorpusFile(t *testing.T) {
	tools := corpusTools()
	data, err := json.MarshalIndent(map[string]any{"tools": tools}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, '\n')
	if *update {
		if err := os.WriteFile(corpusFile, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	have, err := os.ReadFile(corpusFile)
	if err != nil || string(have) != string(data) {
		t.Fatalf("%s is stale (%v); go test ./gen/importer -run TestCorpusFile -update", corpusFile, err)
	}
	if len(tools) < 200 {
		t.Errorf("the corpus has %d tools, want at least 200", len(tools))
	}
}
