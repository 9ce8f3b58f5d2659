package catalog

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestCompactStoredMatchesReference holds the encoder's compaction, which
// skips dropped members unread, to CompactLeaf and to the compaction of
// the decoded tool, for random tools and the test catalog's.
func TestCompactStoredMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	tools := testRegistry().Tools()
	for range 1000 {
		tool := randTool(r)
		tools = append(tools, &tool)
	}
	for i, tool := range tools {
		full, err := tool.AppendJSON(nil)
		if err != nil {
			continue
		}
		want, err := CompactLeaf(full)
		got, err2 := compactStored(full)
		if err != nil || err2 != nil || !bytes.Equal(got, want) {
			t.Fatalf("tool %d: compactStored\n got %s (%v)\nwant %s (%v)", i, got, err2, want, err)
		}
		decoded, _ := compactPayload(tool)
		if b, _ := json.Marshal(decoded); !bytes.Equal(b, want) {
			t.Fatalf("tool %d: CompactLeaf differs from compacting the decoded tool", i)
		}
	}
}

// TestCompactQueriesServeStoredForms requires leaf --compact (canonical and
// primary paths) and --all --compact to give the compaction of each
// decoded tool, and an alias view to keep its own cli_path.
func TestCompactQueriesServeStoredForms(t *testing.T) {
	c, _, _ := testCatalog(t)
	var all bytes.Buffer
	if err := c.WriteAll(&all, true); err != nil {
		t.Fatal(err)
	}
	for i, it := range c.idx.Tools {
		tool, err := c.tool(i)
		if err != nil {
			t.Fatal(err)
		}
		ref, _ := compactPayload(tool)
		want, _ := json.Marshal(ref)
		for _, q := range []Query{{Path: it.Canonical, Compact: true}, {Path: it.Paths[0], Compact: true}, {CLIPath: it.Paths[0], Compact: true}} {
			if p, err := c.Payload(q); err != nil || !bytes.Equal(mustMarshal(p), want) {
				t.Errorf("%+v: %s (%v), want %s", q, mustMarshal(p), err, want)
			}
		}
		var ind bytes.Buffer
		_ = json.Indent(&ind, want, "        ", "  ")
		if !bytes.Contains(all.Bytes(), append([]byte("\n        "), unescapeHTML(ind.Bytes())...)) {
			t.Errorf("--all --compact lacks the compact form of %s", it.Canonical)
		}
	}
	p, err := c.Payload(Query{Path: "cal ls", Compact: true})
	if b := mustMarshal(p); err != nil || !strings.Contains(string(b), `"cli_path":"cal ls"`) {
		t.Errorf("compact alias view: %s (%v)", b, err)
	}
}

func mustMarshal(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// TestOpenRejectsBrokenCompactSection requires the loader to refuse an
// index whose compact_size does not match its compact section.
func TestOpenRejectsBrokenCompactSection(t *testing.T) {
	_, data, index := testCatalog(t)
	for _, broken := range [][]byte{
		bytes.Replace(index, []byte(`"compact_size": `), []byte(`"compact_size": 1`), 1),
		bytes.Replace(index, []byte(`"compact_tools": [`), []byte(`"compact_tools":  [`), 1),
		index[:len(index)-1],
		bytes.TrimPrefix(index, []byte("{\n")),
	} {
		if _, err := Open(data, broken); err == nil {
			t.Errorf("a broken compact section was accepted:\n%.200s", broken)
		}
	}
}

// compactLeafCases are leaves CompactLeaf must treat as decoding them
// whole does: escaped, non-ASCII, invalid UTF-8 and repeated keys, white
// space, numbers out of float64 range in a dropped member, parameters
// that are not objects, nested products and tools, and text that is not
// an object or not JSON.
var compactLeafCases = []string{
	`{}`,
	`{"name":"x","description":"d","parameters":{"a":{"type":"string","property":"p","field_provenance":{"x":[1,2]}}}}`,
	`{"na\u006de":"x","d\u00e9":"<&>","k\"q":1,"\xff":2,"description":"a","description":"b"}`,
	`{"field_provenance":{"v":1e400},"description":"d"}`,
	`{"field_provenance":{"v":` + strings.Repeat("9", 400) + `},"description":"d"}`,
	`{"field_provenance":{"v":1e-400,"w":0.5e3,"s":"1e400"},"description":1.5e3}`,
	`{"description":1e400}`,
	`{"parameters":{"a":[1,{"property":"p"}],"b":null,"c":"s","d":{}},"tools":[{"name":"t","effect":"read"}]}`,
	`{"parameters":[{"property":"p"}],"product":{"name":"p","id":"x","tools":[{"title":"t","risk":"low"}]}}`,
	`{"products":[{"name":"p","id":"x"}],"x":{"name":"kept inside"}}`,
	`{ "name": "x", "description": "white space" }`,
	"{\"description\":\"d\"}\n",
	`[{"name":"x","description":"d"}]`,
	`"leaf"`,
	`{"description":"d"`,
	`{"description":"d",}`,
	`{"a":"\\","b":"\\\"","c":"\"}","d":"` + "\ufeff" + `"}`,
}

// TestCompactLeafMatchesWhole holds CompactLeaf, which decodes only the
// members --compact keeps, to compactWhole, which decodes the leaf whole:
// the same bytes, or both an error.
func TestCompactLeafMatchesWhole(t *testing.T) {
	leaves := slices.Clone(compactLeafCases)
	r := rand.New(rand.NewPCG(5, 6))
	for range 300 {
		tool := randTool(r)
		full, err := tool.AppendJSON(nil)
		if err == nil {
			leaves = append(leaves, string(full))
		}
	}
	for _, leaf := range leaves {
		requireCompactLeafWhole(t, []byte(leaf))
	}
}

// FuzzCompactLeaf holds CompactLeaf to compactWhole on arbitrary text.
func FuzzCompactLeaf(f *testing.F) {
	for _, leaf := range compactLeafCases {
		f.Add([]byte(leaf))
	}
	f.Fuzz(requireCompactLeafWhole)
}

func requireCompactLeafWhole(t *testing.T, leaf []byte) {
	got, err := CompactLeaf(leaf)
	want, errWhole := compactWhole(leaf)
	if (err != nil) != (errWhole != nil) || !bytes.Equal(got, want) {
		t.Fatalf("CompactLeaf(%.200q)\n got %s (%v)\nwant %s (%v)", leaf, got, err, want, errWhole)
	}
}
