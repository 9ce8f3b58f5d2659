package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// CheckRegistrySchema accepts a CLI's own reviewed registry JSON Schema
// (dws commits its own, with its own title, descriptions and $id) when it
// is compatible with RegistrySchema(root), and returns it compiled.
//
// Compatible means: the three closed objects (the registry, a product, a
// command spec) have additionalProperties false and the same properties
// and required lists as cetpgen's, and both schemas give the same verdict
// on every probe registry of registryProbes (valid ones, and one invalid
// per rule: an unknown key at each level, the root name, a flag, a
// wildcard, repeated spaces, a bad visibility, a repeated alias, …).
//
// Go's regexp (RE2), which jsonschema/v6 uses, has no look-ahead. A
// pattern that does not compile and starts with negative look-aheads,
// ^(?!A)(?!B)REST, is rewritten to the equivalent {"pattern": "^REST",
// "not": {"anyOf": [{"pattern": "^A"}, {"pattern": "^B"}]}}: a
// look-ahead at the start of the string asserts that the string does not
// start with a match of A. Any other pattern RE2 cannot compile fails,
// naming where it is.
func CheckRegistrySchema(reviewed []byte, root string) (*jsonschema.Schema, error) {
	var doc any
	if err := json.Unmarshal(reviewed, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", RegistrySchemaFile, err)
	}
	if err := rewriteLookaheads(doc, ""); err != nil {
		return nil, fmt.Errorf("%s: %w", RegistrySchemaFile, err)
	}
	theirs, err := compileSchema(doc)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", RegistrySchemaFile, err)
	}
	var own any
	if err := json.Unmarshal(RegistrySchema(root), &own); err != nil {
		return nil, err
	}
	if err := sameClosedObjects(own, doc); err != nil {
		return nil, fmt.Errorf("%s is not compatible with cetpgen's registry schema: %w", RegistrySchemaFile, err)
	}
	ours, err := compileSchema(own)
	if err != nil {
		return nil, err
	}
	for _, p := range registryProbes(root) {
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(p.doc))
		if err != nil {
			return nil, err
		}
		a, b := ours.Validate(inst) == nil, theirs.Validate(inst) == nil
		if a != b {
			return nil, fmt.Errorf("%s is not compatible with cetpgen's registry schema: on %s cetpgen's says valid=%v, the reviewed one valid=%v", RegistrySchemaFile, p.name, a, b)
		}
	}
	return theirs, nil
}

// rewriteLookaheads replaces, in place, every pattern RE2 cannot compile
// that starts with negative look-aheads (see CheckRegistrySchema).
func rewriteLookaheads(v any, ptr string) error {
	switch x := v.(type) {
	case []any:
		for i, e := range x {
			if err := rewriteLookaheads(e, fmt.Sprintf("%s/%d", ptr, i)); err != nil {
				return err
			}
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if err := rewriteLookaheads(x[k], ptr+"/"+k); err != nil {
				return err
			}
		}
		pat, ok := x["pattern"].(string)
		if !ok {
			return nil
		}
		if _, err := regexp.Compile(pat); err == nil {
			return nil
		}
		rest, negs, err := splitLookaheads(pat)
		if err != nil {
			return fmt.Errorf("pattern at %s/pattern: %w", ptr, err)
		}
		var not []any
		for _, n := range negs {
			not = append(not, map[string]any{"pattern": "^" + n})
		}
		x["pattern"] = rest
		if old, ok := x["not"]; ok {
			not = append(not, map[string]any{"not": old}) // keep an existing not: anyOf of both is "not (A or B or ¬¬old)"
		}
		x["not"] = map[string]any{"anyOf": not}
	}
	return nil
}

// splitLookaheads splits ^(?!A)(?!B)REST into ^REST and [A, B]; each
// piece must compile with RE2.
func splitLookaheads(pat string) (string, []string, error) {
	if !strings.HasPrefix(pat, "^(?!") {
		return "", nil, fmt.Errorf("%q does not compile with Go's regexp and is not ^(?!…)… look-aheads", pat)
	}
	rest := pat[1:]
	var negs []string
	for strings.HasPrefix(rest, "(?!") {
		end := closingParen(rest)
		if end < 0 {
			return "", nil, fmt.Errorf("%q: unbalanced look-ahead", pat)
		}
		negs = append(negs, rest[3:end])
		rest = rest[end+1:]
	}
	for _, p := range append([]string{"^" + rest}, negs...) {
		if _, err := regexp.Compile(p); err != nil {
			return "", nil, fmt.Errorf("%q: %w", pat, err)
		}
	}
	return "^" + rest, negs, nil
}

// closingParen returns the index of the parenthesis closing s[0], or -1;
// escaped characters and character classes are skipped.
func closingParen(s string) int {
	depth, class := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			i++
		case class:
			class = c != ']'
		case c == '[':
			class = true
		case c == '(':
			depth++
		case c == ')':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

func compileSchema(doc any) (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.UseLoader(refuseLoader{})
	const url = "mem://schema.json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	return c.Compile(url)
}

// sameClosedObjects compares the registry, product and command spec
// objects of two registry schemas: closed, same properties, same
// required.
func sameClosedObjects(own, theirs any) error {
	for _, ptr := range []string{"", "/$defs/product", "/$defs/commandSpec"} {
		a, b := at(own, ptr), at(theirs, ptr)
		if b == nil {
			return fmt.Errorf("no object schema at #%s", ptr)
		}
		if b["additionalProperties"] != false {
			return fmt.Errorf("#%s is not closed (additionalProperties: false)", ptr)
		}
		if got, want := keysOf(b["properties"]), keysOf(a["properties"]); !slices.Equal(got, want) {
			return fmt.Errorf("#%s has properties %v, want %v", ptr, got, want)
		}
		if got, want := strsOf(b["required"]), strsOf(a["required"]); !slices.Equal(got, want) {
			return fmt.Errorf("#%s requires %v, want %v", ptr, got, want)
		}
	}
	return nil
}

func at(doc any, ptr string) map[string]any {
	cur := doc
	for _, k := range strings.Split(ptr, "/")[1:] {
		m, _ := cur.(map[string]any)
		cur = m[k]
	}
	m, _ := cur.(map[string]any)
	return m
}

func keysOf(v any) []string {
	m, _ := v.(map[string]any)
	return slices.Sorted(maps.Keys(m))
}

func strsOf(v any) []string {
	l, _ := v.([]any)
	var out []string
	for _, e := range l {
		s, _ := e.(string)
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// registryProbe is one registry document both schemas must judge alike.
type registryProbe struct{ name, doc string }

// registryProbes returns valid registries and one invalid registry per
// rule of the registry schema, for a CLI whose root command is root.
func registryProbes(root string) []registryProbe {
	tool := func(fields string) string {
		return `{"$schema":"./schema_command_registry.schema.json","version":1,"products":[{"id":"p","tools":[` + fields + `]}]}`
	}
	path := func(p string) string {
		b, _ := json.Marshal(p)
		return tool(`{"canonical_path":"p.t","cli_path":` + string(b) + `}`)
	}
	probes := []registryProbe{
		{"a minimal registry", path("p t")},
		{"every field", tool(`{"canonical_path":"p.t_1","source_product_id":"q-2","cli_path":"p t.x:y-z","aliases":["p u","p v"],"visibility":"compat"}`)},
		{"internal visibility", tool(`{"canonical_path":"p.t","cli_path":"p t","visibility":"internal"}`)},
		{"a name that starts with the root name", path(root + "x t")},
		{"an unknown root key", `{"$schema":"./schema_command_registry.schema.json","version":1,"extra":1,"products":[{"id":"p","tools":[{"canonical_path":"p.t","cli_path":"p t"}]}]}`},
		{"an unknown product key", `{"$schema":"./schema_command_registry.schema.json","version":1,"products":[{"id":"p","x":1,"tools":[{"canonical_path":"p.t","cli_path":"p t"}]}]}`},
		{"an unknown command key", tool(`{"canonical_path":"p.t","cli_path":"p t","title":"x"}`)},
		{"another $schema", `{"$schema":"https://example.com/s.json","version":1,"products":[{"id":"p","tools":[{"canonical_path":"p.t","cli_path":"p t"}]}]}`},
		{"version 2", `{"$schema":"./schema_command_registry.schema.json","version":2,"products":[{"id":"p","tools":[{"canonical_path":"p.t","cli_path":"p t"}]}]}`},
		{"no products", `{"$schema":"./schema_command_registry.schema.json","version":1,"products":[]}`},
		{"a product without tools", `{"$schema":"./schema_command_registry.schema.json","version":1,"products":[{"id":"p","tools":[]}]}`},
		{"a missing cli_path", tool(`{"canonical_path":"p.t"}`)},
		{"a canonical path without a dot", tool(`{"canonical_path":"pt","cli_path":"p t"}`)},
		{"a bad product id", `{"$schema":"./schema_command_registry.schema.json","version":1,"products":[{"id":"-p","tools":[{"canonical_path":"p.t","cli_path":"p t"}]}]}`},
		{"the root name as first word", path(root + " p t")},
		{"the root name alone", path(root)},
		{"a flag", path("p t --x")},
		{"a wildcard *", path("p *")},
		{"a wildcard ?", path("p t?")},
		{"a character class", path("p [t]")},
		{"repeated spaces", path("p  t")},
		{"a leading space", path(" p t")},
		{"a trailing space", path("p t ")},
		{"a tab", path("p\tt")},
		{"an empty path", path("")},
		{"a bad visibility", tool(`{"canonical_path":"p.t","cli_path":"p t","visibility":"hidden"}`)},
		{"a repeated alias", tool(`{"canonical_path":"p.t","cli_path":"p t","aliases":["p u","p u"]}`)},
		{"a bad alias", tool(`{"canonical_path":"p.t","cli_path":"p t","aliases":["p --u"]}`)},
	}
	return probes
}

// registrySchemaFor returns the compiled schema the registry of dir is
// checked against besides cetpgen's own: the committed one, byte-equal to
// RegistrySchema(root) or accepted by CheckRegistrySchema.
func registrySchemaFor(committed []byte, root string) (*jsonschema.Schema, error) {
	if bytes.Equal(committed, RegistrySchema(root)) {
		return nil, nil
	}
	return CheckRegistrySchema(committed, root)
}
