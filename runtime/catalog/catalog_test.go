package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
)

func testTool(product, group, verb string, aliases ...string) ToolSpec {
	path := product + " " + group + " " + verb
	return ToolSpec{
		Identity: IdentitySpec{ProductID: product, Name: verb + "_" + group, CLIName: verb,
			CanonicalPath: product + "." + verb + "_" + group, CLIPath: path, PrimaryCLIPath: path,
			Group: group, Aliases: aliases, Source: "reviewed_command_registry"},
		Display: product, Title: verb + " " + group, Description: "Does " + verb + " <&> " + group,
		Parameters: []ParameterSpec{{Name: "id", Type: "string", Description: "id", Required: true}},
		Safety:     SafetySpec{Effect: "read", EffectSource: "command-verb", Risk: "low", Confirmation: "not_required", Idempotency: "idempotent"},
		Interface:  InterfaceSpec{Mode: "local", Availability: "available"},
		Selection:  SelectionSpec{AgentSummary: verb + " " + group, Reviewed: true, MetadataSource: "reviewed-selection"},
	}
}

// bigTool is a tool whose payload is larger than the writer's chunk
// threshold.
func bigTool() ToolSpec {
	t := testTool("doc", "file", "put")
	t.Description = strings.Repeat("A \"quoted\" \\ long   description\n\t", 400)
	return t
}

func testRegistry() *Registry {
	return &Registry{Products: []ProductSpec{
		{ID: "cal", Name: "Calendar", Description: "Calendar", Runtime: true,
			Tools: []ToolSpec{testTool("cal", "event", "create"), testTool("cal", "event", "list", "cal ls")}},
		{ID: "doc", Name: "Docs", Description: "Docs", Runtime: true, Tools: []ToolSpec{testTool("doc", "file", "get"), bigTool()}},
	}}
}

func testCatalog(t *testing.T) (*Catalog, []byte, []byte) {
	t.Helper()
	data, index, err := Encode(testRegistry(), "sha256:surface")
	if err != nil {
		t.Fatal(err)
	}
	c, err := Open(data, index)
	if err != nil {
		t.Fatal(err)
	}
	return c, data, index
}

func TestEncodeIsCompactMarshalOfTheEnvelope(t *testing.T) {
	_, data, _ := testCatalog(t)
	var env map[string]json.RawMessage
	if err := json.Unmarshal(data, &env); err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(env)
	var got bytes.Buffer
	if err := json.Compact(&got, data); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Fatal("the catalog file is not the indented form of json.Marshal of its envelope")
	}
	if strings.Count(string(data), "\n") < 10 || !bytes.HasSuffix(data, []byte("}\n")) {
		t.Fatal("the catalog file should put each tool on its own line and end with a newline")
	}
}

func TestDecodeRoundTripAndHash(t *testing.T) {
	_, data, _ := testCatalog(t)
	reg, surface, err := Decode(data)
	if err != nil || surface != "sha256:surface" || reg.ToolCount() != 4 {
		t.Fatalf("Decode: %v %s", err, surface)
	}
	data2, _, err := Encode(reg, surface)
	if err != nil || !bytes.Equal(data, data2) {
		t.Fatalf("decode then encode is not byte identical (%v)", err)
	}
	tampered := bytes.Replace(data, []byte("Does create"), []byte("Does CREATE"), 1)
	if _, _, err := Decode(tampered); err == nil || !strings.Contains(err.Error(), "source_hash") {
		t.Fatalf("tampered catalog: %v", err)
	}
}

func TestDecodeIsStrict(t *testing.T) {
	_, data, _ := testCatalog(t)
	cases := map[string][]byte{
		"unknown tool field":     bytes.Replace(data, []byte(`"cli_name":"create"`), []byte(`"cli_name":"create","x":1`), 1),
		"unknown envelope field": bytes.Replace(data, []byte(`"version": 1`), []byte(`"version": 1, "x": 2`), 1),
		"trailing data":          append(append([]byte{}, data...), []byte("{}")...),
	}
	for name, d := range cases {
		if _, _, err := Decode(d); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestOpenRejectsForeignOrBrokenIndex(t *testing.T) {
	_, data, index := testCatalog(t)
	other, _, _ := Encode(&Registry{Products: testRegistry().Products[:1]}, "sha256:x")
	if _, err := Open(other, index); err == nil {
		t.Error("an index opened another catalog")
	}
	if _, err := Open(data, bytes.Replace(index, []byte(`"version": 2`), []byte(`"version": 2, "x": 1`), 1)); err == nil {
		t.Error("an index with an unknown field was accepted")
	}
	if _, err := Open(data[:len(data)/2], index); err == nil {
		t.Error("a truncated catalog was accepted")
	}
}

func TestLeafQueryIsStrict(t *testing.T) {
	_, data, index := testCatalog(t)
	// Same length, so the index spans stay valid: a renamed key.
	broken := append([]byte{}, data...)
	i := bytes.LastIndex(broken, []byte(`"cli_name":"create"`)) // in the tools object
	copy(broken[i:], `"cli_nome"`)
	c, err := Open(broken, index)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Payload(Query{Path: "cal event create"}); err == nil || !strings.Contains(err.Error(), "cli_nome") {
		t.Fatalf("leaf with an unknown key: %v", err)
	}
	if _, err := c.Payload(Query{Path: "cal event list"}); err != nil {
		t.Fatalf("an intact leaf of the same catalog: %v", err)
	}
}

func TestQueries(t *testing.T) {
	c, _, _ := testCatalog(t)
	for q, want := range map[Query]string{
		{}:                                    `"level":"products"`,
		{Path: "list"}:                        `"level":"products"`,
		{Path: "cal"}:                         `"level":"product"`,
		{Path: "cal event"}:                   `"level":"group"`,
		{Path: "cal  event   create"}:         `"cli_path":"cal event create"`,
		{Path: "cal.create_event"}:            `"is_alias":false`,
		{Path: "cal ls"}:                      `"cli_path":"cal ls"`,
		{CLIPath: "cal ls"}:                   `"is_alias":true`,
		{Path: "doc file get", Compact: true}: `"canonical_path":"doc.get_file"`,
	} {
		p, err := c.Payload(q)
		if err != nil {
			t.Fatalf("%+v: %v", q, err)
		}
		if b, _ := json.Marshal(p); !strings.Contains(string(b), want) {
			t.Errorf("%+v: %s lacks %s", q, b, want)
		}
	}
}

func TestCompactStripsDebugKeys(t *testing.T) {
	c, _, _ := testCatalog(t)
	p, _ := c.Payload(Query{Path: "cal event create", Compact: true})
	b, _ := json.Marshal(p)
	for _, k := range []string{"field_provenance", "primary_cli_path", "interface_ref", "property", "reviewed"} {
		if strings.Contains(string(b), `"`+k+`"`) {
			t.Errorf("compact leaf keeps %s", k)
		}
	}
	if !strings.Contains(string(b), `"parameters":{"id":`) {
		t.Error("compact leaf lost its parameters")
	}
}

func TestQueryErrors(t *testing.T) {
	c, _, _ := testCatalog(t)
	for _, q := range []Query{{Path: "cal nope"}, {Path: "nope"}, {CLIPath: "cal nope"}, {Path: "cal nope", Root: "cal"}, {All: true, Path: "cal"}, {Path: "cal", CLIPath: "cal ls"}} {
		var buf bytes.Buffer
		err := c.Write(&buf, q)
		var qe *QueryError
		if err == nil || !asQueryError(err, &qe) || qe.Code != 3 || qe.Category != "validation" {
			t.Errorf("%+v: %v", q, err)
		}
	}
	b, _ := json.Marshal(unknownPath("x y"))
	if string(b) != `{"error":{"category":"validation","code":3,"message":"unknown runtime schema path \"x y\""}}` {
		t.Errorf("error JSON: %s", b)
	}
}

func asQueryError(err error, qe **QueryError) bool {
	e, ok := err.(*QueryError)
	*qe = e
	return ok
}

func TestAllHoldsStoredTools(t *testing.T) {
	c, _, _ := testCatalog(t)
	var buf bytes.Buffer
	if err := c.WriteAll(&buf, false); err != nil {
		t.Fatal(err)
	}
	var all struct {
		Products []struct {
			Tools []json.RawMessage `json:"tools"`
		} `json:"products"`
		ToolCount int `json:"tool_count"`
	}
	if err := json.Unmarshal(buf.Bytes(), &all); err != nil || all.ToolCount != 4 {
		t.Fatalf("--all: %v", err)
	}
	stored, _ := c.StoredTool("cal.create_event")
	if !bytes.Equal(compacted(t, all.Products[0].Tools[0]), unescapeHTML(stored)) {
		t.Error("--all does not hold the stored tool")
	}
	// As dws's, --all is indented throughout: the stored tool appears
	// re-indented at its depth (products[].tools[] is depth 4).
	var ind bytes.Buffer
	_ = json.Indent(&ind, stored, "        ", "  ")
	if !bytes.Contains(buf.Bytes(), unescapeHTML(ind.Bytes())) {
		t.Error("--all does not hold the stored tool indented at its depth")
	}
	skeleton, err := c.AllSkeleton()
	want := bytes.Replace(buf.Bytes(), unescapeHTML(ind.Bytes()), []byte(`"cal.create_event"`), 1)
	if err != nil || !bytes.HasPrefix(want[:bytes.Index(want, []byte(`"cal.create_event"`))+18], skeleton[:bytes.Index(skeleton, []byte(`"cal.create_event"`))+18]) {
		t.Errorf("the skeleton differs from --all before the first tool (%v)", err)
	}
	buf.Reset()
	if err := c.WriteAll(&buf, true); err != nil || strings.Contains(buf.String(), "field_provenance") {
		t.Errorf("--all --compact: %v", err)
	}
}

// TestConcurrentQueries runs queries in parallel on one lazily opened
// catalog (meaningful under -race).
func TestConcurrentQueries(t *testing.T) {
	_, data, index := testCatalog(t)
	open := Lazy(data, index)
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := open()
			if err == nil {
				err = c.Write(&bytes.Buffer{}, []Query{{}, {Path: "cal"}, {Path: "cal ls"}, {All: true}}[i%4])
			}
			if err != nil {
				t.Error(fmt.Sprint(err))
			}
		}()
	}
	wg.Wait()
}

func compacted(t *testing.T, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}
