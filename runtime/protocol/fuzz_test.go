package protocol

import (
	"bytes"
	"reflect"
	"testing"
)

// FuzzUnmarshalBundle decodes arbitrary bytes: it must never panic, and a
// Bundle it accepts must encode back to the same bytes and decode to the
// same value.
func FuzzUnmarshalBundle(f *testing.F) {
	for _, b := range []Bundle{sample(), {}, {"a": String("")}, {KeyArgs: String(`{"x":[1,2]}`)}} {
		raw, err := MarshalBundle(b)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		b, err := UnmarshalBundle(raw)
		if err != nil {
			return
		}
		again, err := MarshalBundle(b)
		if err != nil {
			t.Fatalf("re-encode: %v", err)
		}
		if !bytes.Equal(again, raw) {
			b2, err := UnmarshalBundle(again)
			if err != nil || !reflect.DeepEqual(b, b2) {
				t.Fatalf("round trip differs: %v vs %v (%v)", b, b2, err)
			}
		}
		_ = b.CheckKnownTypes()
		if e, err := ParseError(b); err == nil && len(e.Message) > 0 {
			_ = ErrorBundle(Echo{Version: 2}, e)
		}
	})
}
