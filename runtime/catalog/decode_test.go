package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
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
