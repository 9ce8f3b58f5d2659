package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// freshDecodeStrict is DecodeStrict with a new decoder per document.
func freshDecodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if rest := bytes.TrimSpace(data[dec.InputOffset():]); len(rest) > 0 {
		return fmt.Errorf("trailing data after JSON value")
	}
	return nil
}

// TestDecodeStrictReuse runs documents one after another through the
// pooled decoders and requires each result, value or error, to be what a
// fresh decoder gives: nothing of one document leaks into the next.
func TestDecodeStrictReuse(t *testing.T) {
	big, _ := json.Marshal(InterfaceRef{ProductID: string(bytes.Repeat([]byte("p"), 70000)), RPCName: "r"})
	docs := []string{`{"product_id":"a","rpc_name":"b"}`, `{"product_id":"a","rpc_name":"b"} `,
		`{"product_id":"c"}`, `{"product_id":"a","extra":1}`, `{"product_id":"d"}`, `{"product_id":"a"} {}`,
		`{"product_id":"e"}`, `{"product_id":"a"`, `{"product_id":"f"}`, ``, `  `, `{"product_id":"g"}garbage`,
		` {"product_id":"h"}`, string(big), `{"rpc_name":"i"}`, `{"product_id":"j","product_id":"k"}`, `"x"`, `{}`}
	for round := range 3 {
		for i, doc := range docs {
			var got, want InterfaceRef
			errGot := DecodeStrict([]byte(doc), &got)
			errWant := freshDecodeStrict([]byte(doc), &want)
			if fmt.Sprint(errGot) != fmt.Sprint(errWant) || !reflect.DeepEqual(got, want) {
				t.Fatalf("round %d, doc %d: got %+v (%v), want %+v (%v)", round, i, got, errGot, want, errWant)
			}
		}
	}
}

// decodeLeafWire is how ToolSpec.UnmarshalJSON reads a leaf: the parser,
// else the strict decoder.
func decodeLeafWire(data []byte) (toolWire, bool, error) {
	var w toolWire
	if parseLeaf(data, &w) {
		return w, true, nil
	}
	w = toolWire{}
	err := DecodeStrict(data, &w)
	return w, false, err
}

// mutate changes one thing in a leaf: a space or a control character, a
// letter's case, a byte dropped or doubled, a member repeated, a literal
// turned null, trailing data.
func mutate(r *rand.Rand, b []byte) []byte {
	b = bytes.Clone(b)
	i := r.IntN(len(b))
	switch r.IntN(8) {
	case 0:
		return append(b[:i], append([]byte(" "), b[i:]...)...)
	case 6:
		return append(b[:i], append([]byte{byte(r.IntN(0x20))}, b[i:]...)...)
	case 1:
		if c := b[i]; c >= 'a' && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
		return b
	case 2:
		return append(b[:i], b[i+1:]...)
	case 3:
		return append(b[:i], append([]byte{b[i]}, b[i:]...)...)
	case 4:
		if j := bytes.Index(b, []byte(`"title":`)); j > 0 {
			return append(b[:len(b)-1], append([]byte(","), b[j:len(b)-1]...)...)
		}
		return b
	case 5:
		return bytes.Replace(b, []byte("false"), []byte("null"), 1)
	}
	return append(b, "x"...)
}

// TestLeafParserAgreesWithDecoder requires the leaf parser to read every
// canonical leaf (random tools full of escapes) to what the strict decoder
// reads, and any damaged or reordered leaf, through the parser or the
// decoder it falls back to, to what the strict decoder alone gives.
func TestLeafParserAgreesWithDecoder(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	parsed, mutatedParsed := 0, 0
	for i := range 3000 {
		tool := randTool(r)
		data, err := tool.AppendJSON(nil)
		if err != nil {
			continue
		}
		for m := range 4 {
			doc := data
			if m > 0 {
				doc = mutate(r, data)
			}
			got, fast, errGot := decodeLeafWire(doc)
			var want toolWire
			errWant := freshDecodeStrict(doc, &want)
			if fmt.Sprint(errGot) != fmt.Sprint(errWant) || !reflect.DeepEqual(got, want) {
				t.Fatalf("tool %d, mutation %d (parser %v):\n%s\n got %+v (%v)\nwant %+v (%v)", i, m, fast, doc, got, errGot, want, errWant)
			}
			if fast && m == 0 {
				parsed++
			}
			if fast && m > 0 {
				mutatedParsed++
			}
		}
	}
	if parsed < 300 || mutatedParsed < 200 {
		t.Fatalf("the parser read only %d of 3,000 canonical leaves and %d damaged ones", parsed, mutatedParsed)
	}
	t.Logf("the parser read %d canonical and %d damaged leaves", parsed, mutatedParsed)
}
