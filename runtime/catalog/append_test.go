package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// trickyStrings are strings json.Marshal escapes or rewrites, and some it
// writes as they are.
var trickyStrings = []string{"", "plain", "a \"quoted\" \\ word", "<b>&amp;</b>", "tab\tnew\nline\r",
	"\b\f\x01\x1f", "é ü 日本", "\u2028 and \u2029", "bad \xff utf8", "\x7f del", "trailing \\"}

// trickyRaws are raw JSON values: compact, spaced, HTML, non-ASCII.
var trickyRaws = []json.RawMessage{nil, json.RawMessage(`"x"`), json.RawMessage(`true`), json.RawMessage(`[]`),
	json.RawMessage(`[ "a", "b" ]`), json.RawMessage(`{"k": 1.50e3}`), json.RawMessage(`"<tag>"`),
	json.RawMessage(`"é"`), json.RawMessage(` null `), json.RawMessage(`"a \" b"`), json.RawMessage(`"\u2028"`),
	json.RawMessage(`["a","b"]`), json.RawMessage(`["a",1]`), json.RawMessage(`["a,b"]`), json.RawMessage(`[","]`),
	json.RawMessage(`"a","b"`), json.RawMessage(`["a" ,"b"]`), json.RawMessage(`""`), json.RawMessage(`"`), json.RawMessage(`[""]`)}

func pickOf[T any](r *rand.Rand, list []T) T { return list[r.IntN(len(list))] }

func randStrings(r *rand.Rand) []string {
	switch r.IntN(3) {
	case 0:
		return nil
	case 1:
		return []string{}
	}
	return []string{pickOf(r, trickyStrings), pickOf(r, trickyStrings)}
}

func randCandidates(r *rand.Rand) []Candidate {
	if r.IntN(4) == 0 {
		return nil
	}
	cs := make([]Candidate, 1+r.IntN(3))
	for i := range cs {
		cs[i] = Candidate{Precedence: pickOf(r, trickyStrings), ReviewReason: pickOf(r, trickyStrings),
			Selected: r.IntN(2) == 0, Source: pickOf(r, trickyStrings), SourceRef: pickOf(r, trickyStrings),
			Value: pickOf(r, trickyRaws)}
	}
	return cs
}

func randProvenance(r *rand.Rand) map[string]FieldProvenance {
	if r.IntN(5) == 0 {
		return nil
	}
	m := map[string]FieldProvenance{}
	for range r.IntN(4) {
		m[pickOf(r, trickyStrings)] = FieldProvenance{Candidates: randCandidates(r), OverriddenCandidates: randCandidates(r),
			Precedence: pickOf(r, trickyStrings), Resolution: pickOf(r, trickyStrings), ReviewReason: pickOf(r, trickyStrings),
			Source: pickOf(r, trickyStrings), SourceRef: pickOf(r, trickyStrings), Value: pickOf(r, trickyRaws)}
	}
	return m
}

func randParameter(r *rand.Rand) ParameterSpec {
	return ParameterSpec{Name: pickOf(r, trickyStrings), CLIRequired: r.IntN(2) == 0, Default: pickOf(r, trickyStrings),
		Description: pickOf(r, trickyStrings), Enum: randStrings(r), Example: pickOf(r, trickyRaws),
		Provenance: randProvenance(r), Format: pickOf(r, trickyStrings), InterfaceDescription: pickOf(r, trickyStrings),
		InterfaceType: pickOf(r, trickyStrings), Property: pickOf(r, trickyStrings), Required: r.IntN(2) == 0,
		RequiredWhen: pickOf(r, trickyStrings), Type: pickOf(r, trickyStrings)}
}

// randTool fills every field of a ToolSpec with values drawn from the
// tricky lists.
func randTool(r *rand.Rand) ToolSpec {
	s := func() string { return pickOf(r, trickyStrings) }
	t := ToolSpec{
		Identity: IdentitySpec{ProductID: s(), SourceProductID: s(), Name: s(), CLIName: s(), CanonicalPath: s(),
			CLIPath: s(), PrimaryCLIPath: s(), Group: s(), Aliases: randStrings(r), IsAlias: r.IntN(2) == 0, Source: s()},
		Display: s(), Title: s(), Description: s(), MetadataSource: s(),
		Safety:     SafetySpec{Effect: s(), EffectSource: s(), Risk: s(), Confirmation: s(), Idempotency: s()},
		Interface:  InterfaceSpec{Mode: s(), Availability: s(), Reason: s()},
		Selection:  SelectionSpec{AgentSummary: s(), AgentSummarySource: s(), UseWhen: randStrings(r), AvoidWhen: randStrings(r), Examples: randStrings(r), Reviewed: r.IntN(2) == 0, SourceRefs: randStrings(r), MetadataSource: s()},
		Provenance: randProvenance(r),
	}
	for range r.IntN(3) {
		t.Parameters = append(t.Parameters, randParameter(r))
	}
	if r.IntN(2) == 0 {
		t.Interface.Ref = &InterfaceRef{ProductID: s(), RPCName: s()}
	}
	if r.IntN(3) == 0 {
		t.Constraints = &Constraints{MutuallyExclusive: [][]string{{s(), s()}}}
	}
	if r.IntN(3) == 0 {
		t.DryRun = &DryRun{PreviewKind: s(), RemoteReads: r.IntN(2) == 0}
	}
	if r.IntN(3) == 0 {
		t.Positionals = []Positional{{Description: s(), Index: r.IntN(3), Name: s(), Required: true, Type: s()}}
	}
	return t
}

// TestAppendMatchesMarshal holds the hand-written encoders to
// json.Marshal of the wire types, for random tools full of strings and raw
// values that need escaping or compacting.
func TestAppendMatchesMarshal(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 3000 {
		tool := randTool(r)
		want, err := json.Marshal(tool.wire())
		got, err2 := tool.AppendJSON([]byte("x"))
		if (err == nil) != (err2 == nil) || err == nil && !bytes.Equal(got[1:], want) {
			t.Fatalf("tool %d: AppendJSON\n got %s (%v)\nwant %s (%v)", i, got[1:], err2, want, err)
		}
		want, _ = json.Marshal(tool.Summary())
		if got, _ := tool.AppendSummaryJSON(nil); !bytes.Equal(got, want) {
			t.Fatalf("tool %d: AppendSummaryJSON\n got %s\nwant %s", i, got, want)
		}
	}
}

// TestAppendRawErrors requires a raw value json.Marshal refuses to fail
// the hand-written encoder too.
func TestAppendRawErrors(t *testing.T) {
	tool := testTool("cal", "event", "create")
	tool.Provenance = map[string]FieldProvenance{"title": {Value: json.RawMessage(`{"broken"`)}}
	if _, err := tool.AppendJSON(nil); err == nil {
		t.Fatal("a broken raw value encoded")
	}
}

// TestEncodeGrowingTools encodes tools that grow from a few bytes to
// hundreds of kilobytes, so that the file buffer's extrapolated size falls
// short again and again, and requires a file that decodes to the same
// registry, whose hash checks, and whose every index span holds its tool.
func TestEncodeGrowingTools(t *testing.T) {
	r := &Registry{Products: []ProductSpec{{ID: "p", Name: "P", Description: "P", Runtime: true}}}
	for i := range 80 {
		tool := testTool("p", fmt.Sprintf("g%03d", i), "run")
		tool.Description = strings.Repeat("grow ", i*i*2)
		r.Products[0].Tools = append(r.Products[0].Tools, tool)
	}
	data, index, err := Encode(r, "sha256:surface")
	if err != nil {
		t.Fatal(err)
	}
	back, _, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	data2, index2, err := Encode(back, "sha256:surface")
	if err != nil || !bytes.Equal(data, data2) || !bytes.Equal(index, index2) {
		t.Fatalf("decode then encode is not byte identical (%v)", err)
	}
	c, err := Open(data, index)
	if err != nil {
		t.Fatal(err)
	}
	for i, canonical := range c.Canonicals() {
		stored, _ := c.StoredTool(canonical)
		want, _ := r.Products[0].Tools[i].AppendJSON(nil)
		if !bytes.Equal(stored, want) {
			t.Fatalf("tool %s: the index span does not hold the tool", canonical)
		}
	}
}

// TestCompactIntoMatchesCompact compacts indented documents full of
// escapes, cut into pieces at random (after a backslash too), and requires
// what json.Compact writes.
func TestCompactIntoMatchesCompact(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for i := range 500 {
		tool := randTool(r)
		tool.Description = `a \\" b \" c \\\\` + "\" d"
		compact, err := tool.AppendJSON(nil)
		if err != nil {
			continue
		}
		var doc bytes.Buffer
		_ = json.Indent(&doc, compact, "\n ", "\t ")
		var pieces [][]byte
		for rest := doc.Bytes(); len(rest) > 0; {
			n := min(len(rest), 1+r.IntN(40))
			if j := bytes.IndexByte(rest[:n], '\\'); j >= 0 && r.IntN(2) == 0 {
				n = j + 1
			}
			pieces, rest = append(pieces, rest[:n]), rest[n:]
		}
		var got bytes.Buffer
		compactInto(&got, pieces)
		if !bytes.Equal(got.Bytes(), compact) {
			t.Fatalf("doc %d:\n got %s\nwant %s", i, got.Bytes(), compact)
		}
	}
}
