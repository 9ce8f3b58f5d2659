package catalog

import (
	"strings"
	"testing"
)

const goodRegistry = `{
  "$schema": "./schema_command_registry.schema.json",
  "version": 1,
  "products": [
    {"id": "report", "tools": [
      {"canonical_path": "report.get_received_report_list", "cli_path": "report inbox list", "aliases": ["report list"]}
    ]}
  ]
}`

func TestDecodeRegistry(t *testing.T) {
	r, err := DecodeRegistry([]byte(goodRegistry), "dws")
	if err != nil {
		t.Fatal(err)
	}
	c := r.Products[0].Tools[0]
	if c.Visibility != Public || c.ProductID != "report" || c.Source != SourceRegistry {
		t.Fatalf("defaults not normalized: %+v", c)
	}
}

func TestDecodeRegistryRejects(t *testing.T) {
	cases := map[string]string{
		"unknown root field":    strings.Replace(goodRegistry, `"version": 1,`, `"version": 1, "extra": 1,`, 1),
		"unknown tool field":    strings.Replace(goodRegistry, `"cli_path"`, `"rpc": "x", "cli_path"`, 1),
		"unknown product field": strings.Replace(goodRegistry, `{"id": "report",`, `{"id": "report", "name": "R",`, 1),
		"trailing data":         goodRegistry + "{}",
		"leading root name":     strings.Replace(goodRegistry, `"report inbox list"`, `"dws report inbox list"`, 1),
		"root name alone":       strings.Replace(goodRegistry, `"report inbox list"`, `"dws"`, 1),
		"wildcard path":         strings.Replace(goodRegistry, `"report inbox list"`, `"report *"`, 1),
		"flag in path":          strings.Replace(goodRegistry, `"report inbox list"`, `"report --all"`, 1),
		"double space":          strings.Replace(goodRegistry, `"report inbox list"`, `"report  inbox"`, 1),
		"wrong $schema":         strings.Replace(goodRegistry, `./schema_command`, `./other`, 1),
		"version 2":             strings.Replace(goodRegistry, `"version": 1`, `"version": 2`, 1),
		"duplicate alias":       strings.Replace(goodRegistry, `["report list"]`, `["report list", "report list"]`, 1),
		"alias is primary":      strings.Replace(goodRegistry, `["report list"]`, `["report inbox list"]`, 1),
		"canonical prefix":      strings.Replace(goodRegistry, `"report.get`, `"calendar.get`, 1),
		"bad visibility":        strings.Replace(goodRegistry, `"cli_path"`, `"visibility": "secret", "cli_path"`, 1),
		"duplicate product": strings.Replace(goodRegistry, `]}
  ]`, `]}, {"id": "report", "tools": [{"canonical_path": "report.x", "cli_path": "report x"}]}
  ]`, 1),
	}
	for name, doc := range cases {
		if _, err := DecodeRegistry([]byte(doc), "dws"); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestRegistryHashCoversEveryStableField(t *testing.T) {
	base := func() *EffectiveRegistry {
		r, err := DecodeRegistry([]byte(goodRegistry), "dws")
		if err != nil {
			t.Fatal(err)
		}
		e, err := NewEffectiveRegistry(r, nil)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	h := base().Hash()
	edits := map[string]func(c *CommandSpec){
		"canonical":      func(c *CommandSpec) { c.CanonicalPath += "2" },
		"product":        func(c *CommandSpec) { c.ProductID = "rep" },
		"source product": func(c *CommandSpec) { c.SourceProductID = "oa" },
		"primary path":   func(c *CommandSpec) { c.CLIPath = "report received" },
		"alias set":      func(c *CommandSpec) { c.Aliases = append(c.Aliases, "report recv") },
		"visibility":     func(c *CommandSpec) { c.Visibility = Compat },
	}
	for name, edit := range edits {
		e := base()
		edit(&e.Commands[0])
		if e.Hash() == h {
			t.Errorf("changing the %s does not change the hash", name)
		}
	}
	formatted := strings.ReplaceAll(goodRegistry, "\n", "")
	formatted = strings.Replace(formatted, `"cli_path": "report inbox list",`, `"cli_path": "report inbox list", "visibility": "public", "source_product_id": "report",`, 1)
	r, err := DecodeRegistry([]byte(formatted), "dws")
	if err != nil {
		t.Fatal(err)
	}
	e, _ := NewEffectiveRegistry(r, nil)
	if e.Hash() != h {
		t.Error("formatting or explicit defaults change the hash")
	}
}
