package diff

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// soundnessPairs is how many schema pairs TestSoundness generates; each
// pair is compared in both modes, as an input and as an output change.
// The count (not a clock) bounds the test; run more with
// -diff.pairs=N or with the fuzz target.
var soundnessPairs = flag.Int("diff.pairs", 600, "schema pairs TestSoundness generates")

// compiled is a schema compiled by jsonschema/v6, the judge.
type compiled struct{ s *jsonschema.Schema }

// compileSchema compiles a generated schema; ok is false for the few
// generated schemas the judge refuses (which prove nothing).
func compileSchema(doc any) (compiled, bool) {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(noLoader{})
	// Under json-schema.org jsonschema/v6 skips validating the schema
	// against the meta-schema, which the generator respects by
	// construction; it keeps the test fast.
	const loc = "https://json-schema.org/cetpgen-diff-soundness.json"
	if err := c.AddResource(loc, doc); err != nil {
		return compiled{}, false
	}
	s, err := c.Compile(loc)
	return compiled{s}, err == nil
}

// valid reports whether the judge accepts v.
func (c compiled) valid(v any) bool { return c.s.Validate(v) == nil }

// counterexample is a pair that diff calls compatible and an instance
// that proves it wrong.
type counterexample struct {
	output   bool
	mode     Mode
	old, new any
	instance any
}

// String shows the counterexample as JSON.
func (c counterexample) String() string {
	dir := "input"
	if c.output {
		dir = "output"
	}
	return fmt.Sprintf("%s change, %s mode, diff says compatible:\n  old:      %s\n  new:      %s\n  instance: %s",
		dir, c.mode, text(c.old), text(c.new), text(c.instance))
}

// holds reports whether c is still a counterexample: diff finds the change
// compatible, and the instance is counted by the mode and accepted by the
// side that must be contained but rejected by the other.
func (c counterexample) holds() bool {
	return c.compatible() && c.separates()
}

// compatible reports whether diff finds no incompatibility in c's pair.
func (c counterexample) compatible() bool {
	compare := CompareInput
	if c.output {
		compare = CompareOutput
	}
	return len(failing(compare(c.old, c.new, c.mode))) == 0
}

// separates reports whether the judge shows c's instance counted by the
// mode, accepted by the side that must be contained and rejected by the
// other.
func (c counterexample) separates() bool {
	narrow, wide := c.old, c.new
	if c.output {
		narrow, wide = c.new, c.old
	}
	n, okN := compileSchema(narrow)
	w, okW := compileSchema(wide)
	if !okN || !okW || !n.valid(c.instance) || w.valid(c.instance) {
		return false
	}
	if c.mode == Declared {
		d, ok := compileSchema(DeclaredReading(narrow))
		return ok && d.valid(c.instance)
	}
	return true
}

// stats counts, for the log, the verdicts of compatible and the instances
// that were counted against them: a generator that never reaches a
// compatible verdict with counted instances would prove nothing.
var stats struct{ pairs, compatible, counted int }

// findCounterexample compares one pair in every mode and direction and
// returns the first counterexample among the instances.
func findCounterexample(old, new any, instances []any) (counterexample, bool) {
	for _, output := range []bool{false, true} {
		for _, mode := range Modes {
			c := counterexample{output: output, mode: mode, old: old, new: new}
			if !c.compatible() {
				continue
			}
			narrow, wide := old, new
			if output {
				narrow, wide = new, old
			}
			n, _ := compileSchema(narrow)
			w, _ := compileSchema(wide)
			d, _ := compileSchema(DeclaredReading(narrow))
			stats.compatible++
			for _, inst := range instances {
				if n.valid(inst) && (mode == Containment || d.valid(inst)) {
					stats.counted++
				}
				if n.valid(inst) && !w.valid(inst) && (mode == Containment || d.valid(inst)) {
					c.instance = inst
					return c, true
				}
			}
		}
	}
	return counterexample{}, false
}

// quickCompatible reports whether the pair's schemas compile and diff
// finds the pair compatible in some mode and direction; only then can it
// be a counterexample.
func quickCompatible(old, new any) bool {
	if _, ok := compileSchema(old); !ok {
		return false
	}
	if _, ok := compileSchema(new); !ok {
		return false
	}
	for _, mode := range Modes {
		if len(failing(CompareInput(old, new, mode))) == 0 || len(failing(CompareOutput(old, new, mode))) == 0 {
			return true
		}
	}
	return false
}

// checkPair generates instances for one pair and fails t with the
// shrunken counterexample if there is one.
func checkPair(t *testing.T, g *schemaGen, old, new any) {
	t.Helper()
	if !quickCompatible(old, new) {
		return
	}
	if c, ok := findCounterexample(old, new, g.instances(old, new)); ok {
		t.Fatalf("unsound verdict (shrunk):\n%s\nfirst found as:\n%s", shrink(c, counterexample.holds), c)
	}
}

// TestSoundness generates schema pairs (every keyword family, nesting,
// unions, $ref, related by the edits real schemas see, or unrelated) and
// instances, and checks with jsonschema/v6 as the judge that whenever diff
// calls an input change compatible in a mode, every instance the old
// schema accepts and the mode counts is accepted by the new one, and the
// mirror for outputs. A failure prints the smallest pair and instance
// found by shrinking.
func TestSoundness(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 2026))
	n := *soundnessPairs
	if testing.Short() {
		n /= 10
	}
	for i := range n {
		g := &schemaGen{src: randSource{r}}
		old := g.root()
		new := g.mutate(old)
		if i%4 == 3 {
			new = g.root()
		}
		checkPair(t, g, old, new)
	}
	t.Logf("%d pairs, %d compatible verdicts (pair, mode, direction), %d instances checked against them", n, stats.compatible, stats.counted)
	if stats.compatible < n/4 || stats.counted < n {
		t.Errorf("the generator reached %d compatible verdicts and %d counted instances for %d pairs: too few to prove anything", stats.compatible, stats.counted, n)
	}
}

// FuzzSoundness is TestSoundness driven by the fuzzer's bytes: the first
// bytes build the old schema, the next edit it into the new one, the rest
// choose instances.
func FuzzSoundness(f *testing.F) {
	for _, seed := range []string{"", "\x01\x02\x03", "soundness", "\x05\x00\x07\x01\x04\x02\x09\x00\x03"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g := &schemaGen{src: &byteSource{data: data}}
		old := g.root()
		new := g.mutate(old)
		checkPair(t, g, old, new)
	})
}

// shrink returns a smaller counterexample: keywords, members and branches
// are removed and subschemas replaced by their parts for as long as keep
// (normally holds) is true of the result.
func shrink(c counterexample, keep func(counterexample) bool) counterexample {
	for range 500 {
		better, ok := smaller(c, keep)
		if !ok {
			return c
		}
		c = better
	}
	return c
}

// smaller returns the first simplification of c that keep accepts.
func smaller(c counterexample, keep func(counterexample) bool) (counterexample, bool) {
	for _, old := range simplifications(c.old) {
		if d := (counterexample{c.output, c.mode, old, c.new, c.instance}); keep(d) {
			return d, true
		}
	}
	for _, new := range simplifications(c.new) {
		if d := (counterexample{c.output, c.mode, c.old, new, c.instance}); keep(d) {
			return d, true
		}
	}
	for _, inst := range simplifications(c.instance) {
		if d := (counterexample{c.output, c.mode, c.old, c.new, inst}); keep(d) {
			return d, true
		}
	}
	return c, false
}

// simplifications returns the values one step simpler than v: for an
// object, each without one member or with one member simplified, and
// each member value itself; for an array, each without one element or
// with one simplified; for a scalar, simpler scalars.
func simplifications(v any) []any {
	var out []any
	switch x := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(x) {
			m := deepCopy(x).(map[string]any)
			delete(m, k)
			out = append(out, m)
		}
		for _, k := range sortedKeys(x) {
			for _, s := range simplifications(x[k]) {
				m := deepCopy(x).(map[string]any)
				m[k] = s
				out = append(out, m)
			}
		}
	case []any:
		for i := range x {
			l := append(deepCopy(x[:i]).([]any), deepCopy(x[i+1:]).([]any)...)
			out = append(out, l)
		}
		for i := range x {
			for _, s := range simplifications(x[i]) {
				l := deepCopy(x).([]any)
				l[i] = s
				out = append(out, l)
			}
		}
	case string:
		if x != "" {
			out = append(out, "", x[:len(x)-1])
		}
	case json.Number:
		if x != "0" {
			out = append(out, json.Number("0"))
		}
	}
	return out
}

// TestShrinkFindsSmallest checks the shrinking on a planted bug: a
// judge-only predicate (old accepts, new rejects: what a checker that
// ignored maxLength would let through) must shrink a cluttered pair and
// instance to the keyword and member that matter.
func TestShrinkFindsSmallest(t *testing.T) {
	c := counterexample{
		mode:     Containment,
		old:      decodeJSON(`{"type":"object","properties":{"a":{"type":"string","maxLength":5},"b":{"type":"integer"}},"required":["b"]}`),
		new:      decodeJSON(`{"type":"object","properties":{"a":{"type":"string","maxLength":3},"b":{"type":"integer"}},"required":["b"]}`),
		instance: decodeJSON(`{"a":"abcd","b":7,"z":[1,2]}`),
	}
	separates := func(d counterexample) bool {
		n, okN := compileSchema(d.old)
		w, okW := compileSchema(d.new)
		return okN && okW && n.valid(d.instance) && !w.valid(d.instance)
	}
	got := shrink(c, separates)
	if o, n, i := text(got.old), text(got.new), text(got.instance); o != `{}` || n != `{"properties":{"a":{"maxLength":0}}}` || i != `{"a":"a"}` {
		t.Errorf("shrunk to old %s, new %s, instance %s; want old {}, new {\"properties\":{\"a\":{\"maxLength\":0}}}, instance {\"a\":\"a\"}", o, n, i)
	}
	if !strings.Contains(c.String(), "diff says compatible") || !strings.Contains(c.String(), `"z":[1,2]`) {
		t.Errorf("counterexample text %q does not show the pair and instance", c.String())
	}
}

// decodeJSON decodes a test document with numbers kept exact.
func decodeJSON(s string) any {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		panic(err)
	}
	return v
}
