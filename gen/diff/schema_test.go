package diff

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// schemaCase is one comparison and the rule IDs it must yield, in order.
type schemaCase struct {
	name     string
	output   bool
	old, new string
	want     string // space-separated rule IDs; "" means compatible
}

var schemaCases = []schemaCase{
	// Identity and trivial schemas.
	{"identical", false, `{"type":"string"}`, `{"type":"string"}`, ""},
	{"true accepts all", false, `{"type":"string"}`, `true`, ""},
	{"false narrows", false, `{"type":"string"}`, `false`, "input-type-narrowed"},
	{"from false", false, `false`, `{"type":"string"}`, ""},
	// Types, integer inside number, nullable type lists.
	{"number to integer", false, `{"type":"number"}`, `{"type":"integer"}`, "input-type-narrowed"},
	{"integer to number", false, `{"type":"integer"}`, `{"type":"number"}`, ""},
	{"nullable dropped", false, `{"type":["string","null"]}`, `{"type":"string"}`, "input-type-narrowed"},
	{"nullable added in", false, `{"type":"string"}`, `{"type":["string","null"]}`, ""},
	{"nullable added out", true, `{"type":"string"}`, `{"type":["string","null"]}`, "output-type-widened"},
	{"integer out narrowed ok", true, `{"type":"number"}`, `{"type":"integer"}`, ""},
	{"type removed out", true, `{"type":"string"}`, `{}`, "output-type-widened"},
	// Enums and const.
	{"enum value removed", false, `{"enum":["a","b"]}`, `{"enum":["a"]}`, "input-enum-value-removed"},
	{"enum value added in", false, `{"enum":["a"]}`, `{"enum":["a","b"]}`, ""},
	{"enum value added out", true, `{"enum":["a"]}`, `{"enum":["a","b"]}`, "output-enum-value-added"},
	{"enum numbers by value", false, `{"enum":[1,2]}`, `{"enum":[1.0,2.0]}`, ""},
	{"enum added", false, `{"type":"string"}`, `{"type":"string","enum":["a"]}`, "input-enum-value-removed"},
	{"const to enum", false, `{"const":"a"}`, `{"enum":["a","b"]}`, ""},
	{"enum to const", false, `{"enum":["a","b"]}`, `{"const":"a"}`, "input-enum-value-removed"},
	{"enum removed out", true, `{"type":"string","enum":["a"]}`, `{"type":"string"}`, "output-enum-value-added"},
	// Numeric bounds, exact numbers, integer normalization, multipleOf.
	{"minimum raised", false, `{"type":"number","minimum":0}`, `{"type":"number","minimum":1}`, "input-bound-tightened"},
	{"minimum lowered", false, `{"type":"number","minimum":1}`, `{"type":"number","minimum":0}`, ""},
	{"maximum added", false, `{"type":"number"}`, `{"type":"number","maximum":10}`, "input-bound-tightened"},
	{"exclusive at same value", false, `{"type":"number","minimum":0}`, `{"type":"number","exclusiveMinimum":0}`, "input-bound-tightened"},
	{"inclusive at same value", false, `{"type":"number","exclusiveMinimum":0}`, `{"type":"number","minimum":0}`, ""},
	{"integer exclusive equals inclusive", false, `{"type":"integer","exclusiveMinimum":0}`, `{"type":"integer","minimum":1}`, ""},
	{"integer exclusive maximum", false, `{"type":"integer","maximum":9}`, `{"type":"integer","exclusiveMaximum":10}`, ""},
	{"tiny exact bound", false, `{"type":"number","minimum":1e-8}`, `{"type":"number","minimum":0.00000001}`, ""},
	{"big integers exact", false, `{"type":"integer","maximum":9007199254740993}`, `{"type":"integer","maximum":9007199254740992}`, "input-bound-tightened"},
	{"bound loosened out", true, `{"type":"integer","maximum":10}`, `{"type":"integer","maximum":20}`, "output-bound-loosened"},
	{"bound tightened out", true, `{"type":"integer","maximum":20}`, `{"type":"integer","maximum":10}`, ""},
	{"multipleOf implied", false, `{"type":"number","multipleOf":4}`, `{"type":"number","multipleOf":2}`, ""},
	{"multipleOf not implied", false, `{"type":"number","multipleOf":2}`, `{"type":"number","multipleOf":4}`, "input-bound-tightened"},
	{"bounds ignore other types", false, `{"type":"string"}`, `{"type":"string","minimum":3}`, ""},
	// Strings.
	{"maxLength lowered", false, `{"type":"string","maxLength":10}`, `{"type":"string","maxLength":5}`, "input-bound-tightened"},
	{"minLength removed", false, `{"type":"string","minLength":1}`, `{"type":"string"}`, ""},
	{"pattern changed", false, `{"type":"string","pattern":"^a"}`, `{"type":"string","pattern":"^b"}`, "input-bound-tightened"},
	{"pattern removed", false, `{"type":"string","pattern":"^a"}`, `{"type":"string"}`, ""},
	{"format added", false, `{"type":"string"}`, `{"type":"string","format":"date"}`, "input-bound-tightened"},
	// Arrays.
	{"items narrowed", false, `{"type":"array","items":{"type":"number"}}`, `{"type":"array","items":{"type":"integer"}}`, "input-type-narrowed"},
	{"maxItems added", false, `{"type":"array"}`, `{"type":"array","maxItems":3}`, "input-bound-tightened"},
	{"uniqueItems added", false, `{"type":"array"}`, `{"type":"array","uniqueItems":true}`, "input-bound-tightened"},
	// Objects.
	{"optional property added closed", false, obj(`"a":{"type":"string"}`, ``, false), obj(`"a":{"type":"string"},"b":{"type":"integer"}`, ``, false), ""},
	{"required added", false, obj(`"a":{"type":"string"}`, ``, false), obj(`"a":{"type":"string"}`, `"a"`, false), "input-required-added"},
	{"required dropped", false, obj(`"a":{"type":"string"}`, `"a"`, false), obj(`"a":{"type":"string"}`, ``, false), ""},
	{"property removed closed", false, obj(`"a":{},"b":{}`, ``, false), obj(`"a":{}`, ``, false), "input-property-removed"},
	{"property removed open", false, obj(`"a":{},"b":{"type":"string"}`, ``, true), obj(`"a":{}`, ``, true), ""},
	{"property typed on open input", false, obj(``, ``, true), obj(`"b":{"type":"string"}`, ``, true), "input-property-constrained"},
	{"closed input", false, obj(`"a":{}`, ``, true), obj(`"a":{}`, ``, false), "input-narrowed"},
	{"opened input", false, obj(`"a":{}`, ``, false), obj(`"a":{}`, ``, true), ""},
	{"output required dropped", true, obj(`"a":{"type":"string"}`, `"a"`, true), obj(`"a":{"type":"string"}`, ``, true), "output-property-optional"},
	{"output property removed", true, obj(`"a":{"type":"string"}`, `"a"`, true), obj(``, ``, true), "output-property-removed"},
	{"output optional removed", true, obj(`"a":{"type":"string"}`, ``, true), obj(``, ``, true), "output-property-removed"},
	{"output property added", true, obj(`"a":{"type":"string"}`, `"a"`, true), obj(`"a":{"type":"string"},"b":{}`, `"a","b"`, true), ""},
	{"output property added closed", true, obj(`"a":{}`, ``, false), obj(`"a":{},"b":{}`, ``, false), "output-widened"},
	{"additionalProperties schema", false, `{"type":"object","additionalProperties":{"type":"number"}}`, `{"type":"object","additionalProperties":{"type":"integer"}}`, "input-type-narrowed"},
	// $ref through $defs, anchors, recursion, unresolvable.
	{"ref same", false, `{"$defs":{"x":{"type":"string"}},"$ref":"#/$defs/x"}`, `{"$defs":{"x":{"type":"string"}},"$ref":"#/$defs/x"}`, ""},
	{"ref target narrowed", false, `{"$defs":{"x":{"type":"number"}},"$ref":"#/$defs/x"}`, `{"$defs":{"x":{"type":"integer"}},"$ref":"#/$defs/x"}`, "input-ref-target-changed"},
	{"ref inlined", false, `{"$defs":{"x":{"type":"string"}},"properties":{"a":{"$ref":"#/$defs/x"}}}`, `{"properties":{"a":{"type":"string"}}}`, ""},
	{"ref anchor", true, `{"$defs":{"x":{"$anchor":"X","enum":["a"]}},"$ref":"#X"}`, `{"$defs":{"x":{"$anchor":"X","enum":["a","b"]}},"$ref":"#X"}`, "output-ref-target-changed"},
	{"ref recursive same", false, treeSchema("number"), treeSchema("number"), ""},
	{"ref recursive narrowed", false, treeSchema("number"), treeSchema("integer"), "input-ref-target-changed"},
	{"ref unresolvable", false, `{"type":"string"}`, `{"$ref":"other.json"}`, "input-undecided"},
	{"ref with siblings", false, `{"$defs":{"x":{"type":"number"}},"$ref":"#/$defs/x"}`, `{"$defs":{"x":{"type":"number"}},"$ref":"#/$defs/x","maximum":5}`, "input-bound-tightened"},
	// allOf, anyOf, oneOf.
	{"anyOf branch added in", false, `{"anyOf":[{"type":"string"}]}`, `{"anyOf":[{"type":"string"},{"type":"integer"}]}`, ""},
	{"anyOf branch removed in", false, `{"anyOf":[{"type":"string"},{"type":"integer"}]}`, `{"anyOf":[{"type":"string"}]}`, "input-type-narrowed"},
	{"anyOf branch added out", true, `{"anyOf":[{"type":"string"}]}`, `{"anyOf":[{"type":"string"},{"type":"integer"}]}`, "output-type-widened"},
	{"anyOf undecided", false, `{"type":"object"}`, `{"anyOf":[{"required":["a"]},{"required":["b"]}]}`, "input-undecided"},
	{"oneOf discriminated same", false, oneOf(`"x"`, `"y"`), oneOf(`"x"`, `"y"`), ""},
	{"oneOf branch added in", false, oneOf(`"x"`), oneOf(`"x"`, `"y"`), ""},
	{"oneOf branch added out", true, oneOf(`"x"`), oneOf(`"x"`, `"y"`), "output-enum-value-added"},
	{"allOf wide exact", false, `{"type":"integer"}`, `{"allOf":[{"type":"integer"},{"minimum":0}]}`, "input-bound-tightened"},
	{"allOf narrow merged", false, `{"allOf":[{"properties":{"a":{"type":"string"}}},{"required":["a"]}]}`, `{"properties":{"a":{"type":"string"}},"required":["a"]}`, ""},
	{"allOf narrow member", false, `{"allOf":[{"type":"integer"},{"minimum":0}]}`, `{"type":"number"}`, ""},
	{"integer fractional bounds", false, `{"type":"integer","minimum":-1.5,"maximum":2.5}`, `{"type":"integer","minimum":-1,"maximum":2}`, ""},
	{"integer negative exclusive", false, `{"type":"integer","exclusiveMinimum":-2}`, `{"type":"integer","minimum":-1}`, ""},
	{"number fractional bound kept", false, `{"type":"number","minimum":-1.5}`, `{"type":"number","minimum":-1}`, "input-bound-tightened"},
	{"both exclusive and inclusive", false, `{"type":"number","minimum":0,"exclusiveMinimum":0}`, `{"type":"number","exclusiveMinimum":0}`, ""},
	{"allOf narrow conflicting", false, `{"allOf":[{"type":"string","maxLength":5},{"type":"string","maxLength":3}]}`, `{"type":"string","maxLength":2}`, "input-undecided"},
	{"anyOf narrow with siblings", false, `{"type":"object","anyOf":[{"required":["a"]},{"required":["b"]}]}`, `{"type":"object","required":["a"]}`, "input-required-added"},
	{"anyOf narrow unmergeable siblings", false, `{"type":"string","maxLength":10,"anyOf":[{"maxLength":3},{"pattern":"^a"}]}`, `{"type":"string","maxLength":3}`, "input-undecided input-bound-tightened"},
	{"oneOf wide by type", false, `{"type":"string"}`, `{"oneOf":[{"type":"string"},{"type":"integer"}]}`, ""},
	// Unions decided branch by branch: type-disjoint branches, nullable
	// anyOf, enum and const values through them, pattern alternatives.
	{"nullable anyOf in", false, `{"type":["string","null"],"maxLength":5}`, `{"anyOf":[{"type":"string","maxLength":10},{"type":"null"}]}`, ""},
	{"nullable anyOf tightened in", false, `{"type":["string","null"],"maxLength":10}`, `{"anyOf":[{"type":"string","maxLength":5},{"type":"null"}]}`, "input-bound-tightened"},
	{"nullable anyOf drops null in", false, `{"type":["string","null"]}`, `{"anyOf":[{"type":"string"},{"type":"integer"}]}`, "input-type-narrowed"},
	{"nullable anyOf out", true, `{"anyOf":[{"type":"string","maxLength":10},{"type":"null"}]}`, `{"type":["string","null"],"maxLength":5}`, ""},
	{"type-disjoint oneOf in", false, `{"type":["string","integer"],"minimum":0,"maxLength":8}`, `{"oneOf":[{"type":"string"},{"type":"integer","minimum":0}]}`, ""},
	{"type-disjoint oneOf integer tightened", false, `{"type":["string","integer"]}`, `{"oneOf":[{"type":"string"},{"type":"integer","minimum":0}]}`, "input-bound-tightened"},
	{"enum through oneOf in", false, `{"enum":["a","b","c"]}`, `{"oneOf":[{"const":"a"},{"const":"b"},{"enum":["c","d"]}]}`, ""},
	{"enum through oneOf value lost", false, `{"enum":["a","b","e"]}`, `{"oneOf":[{"const":"a"},{"const":"b"},{"enum":["c","d"]}]}`, "input-enum-value-removed"},
	{"enum through overlapping oneOf", false, `{"enum":["a","c"]}`, `{"oneOf":[{"enum":["a","c"]},{"const":"c"}]}`, "input-enum-value-removed"},
	{"const alternatives out", true, `{"anyOf":[{"const":"open"},{"const":"closed"}]}`, `{"const":"open"}`, ""},
	{"pattern alternatives in", false, `{"type":"string","pattern":"^[0-9]+$"}`, `{"anyOf":[{"pattern":"^[0-9]+$"},{"type":"string","pattern":"^[a-f]+$"}]}`, ""},
	{"pattern alternatives narrowed in", false, `{"type":"string","pattern":"^[0-9a-z]+$"}`, `{"anyOf":[{"pattern":"^[0-9]+$"},{"pattern":"^[a-f]+$"}]}`, "input-bound-tightened"},
	{"narrow disjoint oneOf decided", true, `{"type":"string"}`, `{"oneOf":[{"type":"string"},{"type":"integer"}]}`, "output-type-widened"},
	{"oneOf wide overlapping", false, `{"type":"string"}`, `{"oneOf":[{"type":"string"},{"type":"string","maxLength":3}]}`, "input-undecided"},
	{"items absent to typed", false, `{"type":"array"}`, `{"type":"array","items":{"type":"string"}}`, "input-type-narrowed"},
	{"object bounds", false, `{"type":"object"}`, `{"type":"object","maxProperties":3}`, "input-bound-tightened"},
	{"enum on wide without type", false, `{"type":"integer"}`, `{"enum":[1,2]}`, "input-enum-value-removed"},
	{"string typed enum values", true, `{"type":"string","enum":["a","b"]}`, `{"enum":["a"]}`, ""},
	// Keywords outside the decided set.
	{"not added on wide", false, `{"type":"string"}`, `{"type":"string","not":{"const":"x"}}`, "input-undecided"},
	{"not only narrow", false, `{"type":"string","not":{"const":"x"}}`, `{"type":"string"}`, ""},
	{"patternProperties", false, obj(``, ``, false), `{"type":"object","patternProperties":{"^x":{}},"additionalProperties":false}`, "input-undecided"},
	{"same unknown keyword", false, `{"type":"string","not":{"const":"x"}}`, `{"type":"string","not":{"const":"x"}}`, ""},
	{"annotations ignored", false, `{"type":"string","description":"a"}`, `{"type":"string","description":"b","examples":["x"]}`, ""},
}

// obj builds an object schema with the given properties, required names
// and openness.
func obj(properties, required string, open bool) string {
	s := `{"type":"object","properties":{` + properties + `},"required":[` + required + `]`
	if !open {
		s += `,"additionalProperties":false`
	}
	return s + "}"
}

// treeSchema is a recursive schema whose leaf values have type leaf.
func treeSchema(leaf string) string {
	return `{"$defs":{"t":{"type":"object","properties":{"v":{"type":"` + leaf +
		`"},"kids":{"type":"array","items":{"$ref":"#/$defs/t"}}}}},"$ref":"#/$defs/t"}`
}

// oneOf builds a oneOf over objects discriminated by a required kind.
func oneOf(kinds ...string) string {
	var bs []string
	for _, k := range kinds {
		bs = append(bs, `{"type":"object","properties":{"kind":{"const":`+k+`}},"required":["kind"]}`)
	}
	return `{"oneOf":[` + strings.Join(bs, ",") + `]}`
}

// decode parses a JSON test schema, keeping numbers exact.
func decode(t *testing.T, s string) any {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("bad test schema %s: %v", s, err)
	}
	return v
}

// TestSchemaCompatibility checks the containment reasoning case by case:
// each pair yields exactly the listed rules, and compatible pairs none.
func TestSchemaCompatibility(t *testing.T) {
	for _, tc := range schemaCases {
		t.Run(tc.name, func(t *testing.T) {
			old, new := decode(t, tc.old), decode(t, tc.new)
			compare := CompareInput
			if tc.output {
				compare = CompareOutput
			}
			var got []string
			for _, f := range failing(compare(old, new, Containment)) {
				got = append(got, f.Rule)
			}
			if want := strings.Fields(tc.want); !slices.Equal(got, want) {
				t.Errorf("rules %v, want %v\nfindings: %+v", got, want, compare(old, new, Containment))
			}
		})
	}
}

// TestSchemaUndecidedNamesKeyword checks that an undecided verdict names
// the keyword that stopped the reasoning.
func TestSchemaUndecidedNamesKeyword(t *testing.T) {
	fs := CompareInput(decode(t, `{"type":"string"}`), decode(t, `{"type":"string","not":{"const":"x"}}`), Containment)
	if len(fs) != 1 || !fs[0].Undecided || fs[0].Keyword != "not" || !strings.Contains(fs[0].Message, "not") {
		t.Fatalf("findings %+v, want one undecided finding naming not", fs)
	}
}

// TestSchemaFindingPointsAtNewSchema checks that findings carry a pointer
// into the new schema, for annotations on the changed line.
func TestSchemaFindingPointsAtNewSchema(t *testing.T) {
	old := decode(t, `{"type":"object","properties":{"a":{"type":"number"}}}`)
	new := decode(t, `{"type":"object","properties":{"a":{"type":"integer"}}}`)
	fs := CompareInput(old, new, Containment)
	if len(fs) != 1 || fs[0].Ptr != "/properties/a" {
		t.Fatalf("findings %+v, want one at /properties/a", fs)
	}
}

// TestSchemaDepthLimit checks that a pathologically deep schema ends in an
// undecided finding instead of running away.
func TestSchemaDepthLimit(t *testing.T) {
	deep := func(leaf string) string {
		return strings.Repeat(`{"type":"array","items":`, maxDepth+5) + `{"type":"` + leaf + `"}` + strings.Repeat("}", maxDepth+5)
	}
	fs := CompareInput(decode(t, deep("number")), decode(t, deep("integer")), Containment)
	if len(fs) != 1 || !fs[0].Undecided {
		t.Fatalf("findings %+v, want one undecided finding", fs)
	}
}

// modeCase is one comparison with the rule IDs it must yield in each
// contract mode ("" means compatible; notes are not listed).
type modeCase struct {
	name                  string
	output                bool
	old, new              string
	containment, declared string
}

var modeCases = []modeCase{
	{"optional added to open input", false,
		`{"type":"object","properties":{"q":{"type":"string"}}}`,
		`{"type":"object","properties":{"q":{"type":"string"},"sort":{"enum":["asc","desc"]}}}`,
		"input-property-constrained", ""},
	{"required rename on open input", false,
		`{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`,
		`{"type":"object","properties":{"query":{"type":"string"}},"required":["query"]}`,
		"input-property-constrained input-required-added", "input-required-added"},
	{"new required property on closed input", false,
		`{"type":"object","properties":{"id":{"type":"string"}},"additionalProperties":false}`,
		`{"type":"object","properties":{"id":{"type":"string"},"kind":{"type":"string"}},"required":["kind"],"additionalProperties":false}`,
		"input-required-added", "input-required-added"},
	{"required unconstrained property on open input", false,
		`{"type":"object","properties":{"id":{"type":"string"}}}`,
		`{"type":"object","properties":{"id":{"type":"string"},"kind":{}},"required":["kind"]}`,
		"input-required-added", "input-required-added"},
	{"closing a fully declared input", false,
		`{"type":"object","properties":{"a":{"type":"string"}}}`,
		`{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`,
		"input-narrowed", ""},
	{"closing and dropping a property", false,
		`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}}}`,
		`{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`,
		"input-property-removed input-narrowed", "input-property-removed"},
	{"closing an array item", false,
		`{"type":"array","items":{"type":"object","properties":{"a":{"type":"string"}}}}`,
		`{"type":"array","items":{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}}`,
		"input-narrowed", ""},
	{"free-form object stays open", false,
		`{"type":"object","properties":{"meta":{"type":"object"}}}`,
		`{"type":"object","properties":{"meta":{"type":"object","properties":{"x":{"type":"integer"}}}}}`,
		"input-property-constrained", "input-property-constrained"},
	{"closing a referenced definition", false,
		`{"type":"object","properties":{"p":{"$ref":"#/$defs/p"}},"$defs":{"p":{"type":"object","properties":{"a":{"type":"string"}}}}}`,
		`{"type":"object","properties":{"p":{"$ref":"#/$defs/p"}},"$defs":{"p":{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}}}`,
		"input-ref-target-changed", ""},
	{"a definition shared through allOf stays open", false,
		`{"allOf":[{"$ref":"#/$defs/p"}],"properties":{"b":{"type":"string"}},"$defs":{"p":{"type":"object","properties":{"a":{"type":"string"}}}}}`,
		`{"allOf":[{"$ref":"#/$defs/p"}],"properties":{"b":{"type":"string"}},"$defs":{"p":{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}}}`,
		"input-ref-target-changed input-ref-target-changed", "input-ref-target-changed input-ref-target-changed"},
	{"output opened with the same members", true,
		`{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`,
		`{"type":"object","properties":{"a":{"type":"string"}}}`,
		"output-widened", ""},
	{"output gains a member of a closed object", true,
		`{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`,
		`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"additionalProperties":false}`,
		"output-widened", "output-widened"},
	{"output member removed", true,
		`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}}}`,
		`{"type":"object","properties":{"a":{"type":"string"}}}`,
		"output-property-removed", "output-property-removed"},
}

// TestSchemaModes checks each comparison in both contract modes.
func TestSchemaModes(t *testing.T) {
	for _, tc := range modeCases {
		t.Run(tc.name, func(t *testing.T) {
			old, new := decode(t, tc.old), decode(t, tc.new)
			compare := CompareInput
			if tc.output {
				compare = CompareOutput
			}
			for _, m := range []struct {
				mode Mode
				want string
			}{{Containment, tc.containment}, {Declared, tc.declared}} {
				var got []string
				for _, f := range failing(compare(old, new, m.mode)) {
					got = append(got, f.Rule)
				}
				if want := strings.Fields(m.want); !slices.Equal(got, want) {
					t.Errorf("%s: rules %v, want %v\nfindings: %+v", m.mode, got, want, compare(old, new, m.mode))
				}
			}
		})
	}
}

// TestSchemaRenameNamesBoth checks that a renamed required input property
// is one finding that names the old and the new name.
func TestSchemaRenameNamesBoth(t *testing.T) {
	old := decode(t, `{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`)
	new := decode(t, `{"type":"object","properties":{"query":{"type":"string"}},"required":["query"]}`)
	for _, mode := range Modes {
		var req []Finding
		for _, f := range CompareInput(old, new, mode) {
			if f.Rule == "input-required-added" {
				req = append(req, f)
			}
		}
		if len(req) != 1 || !strings.Contains(req[0].Message, `"q"`) || !strings.Contains(req[0].Message, `"query"`) || !strings.Contains(req[0].Message, "rename") {
			t.Errorf("%s: findings %+v, want one input-required-added naming q and query as a rename", mode, req)
		}
	}
}

// TestSchemaAddedPropertyNoted checks that added properties are notes in
// both directions and leave the verdict compatible.
func TestSchemaAddedPropertyNoted(t *testing.T) {
	in := CompareInput(decode(t, `{"type":"object","properties":{"a":{}},"additionalProperties":false}`),
		decode(t, `{"type":"object","properties":{"a":{},"overwrite":{"type":"boolean"}},"additionalProperties":false}`), Declared)
	out := CompareOutput(decode(t, `{"type":"object","properties":{"a":{}}}`),
		decode(t, `{"type":"object","properties":{"a":{},"etag":{"type":"string"}},"required":["etag"]}`), Declared)
	for _, c := range []struct {
		fs   []Finding
		rule string
		ptr  string
	}{{in, "input-property-added", "/properties/overwrite"}, {out, "output-property-added", "/properties/etag"}} {
		if len(c.fs) != 1 || c.fs[0].Rule != c.rule || !c.fs[0].Note || c.fs[0].Ptr != c.ptr || verdict(c.fs) != "compatible" {
			t.Errorf("findings %+v, want one %s note at %s", c.fs, c.rule, c.ptr)
		}
	}
}
