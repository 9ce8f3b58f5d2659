package validate

import (
	"encoding/json"
	"math/big"

	"github.com/cetpgen/cetpgen/gen/diag"
	"github.com/cetpgen/cetpgen/gen/internal/schemaref"
	"github.com/cetpgen/cetpgen/gen/spec"
	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// requestBytes is the negotiated max_request_bytes of a spec: its limits
// block, or the protocol minimum.
func requestBytes(p *spec.Provider) int64 {
	if p.Limits != nil && p.Limits.MaxRequestBytes > 0 {
		return int64(p.Limits.MaxRequestBytes)
	}
	return protocol.MinRequestBytes
}

// unreachableBounds warns about each lower bound of an input schema that
// no value within max_request_bytes can meet: the smallest JSON text that
// satisfies it is longer than a call's whole arguments may be, so no
// Consumer can ever send it.
func unreachableBounds(doc *spec.Doc, input any, limit int64) diag.List {
	var l diag.List
	schemaref.Walk(input, "/input_schema", func(obj map[string]any, ptr string) {
		for _, b := range lowerBounds {
			n, ok := bound(obj[b.keyword])
			if !ok || n.Sign() <= 0 {
				continue
			}
			if need := b.bytes(n); need.Cmp(big.NewInt(limit)) > 0 {
				l.Warnf(doc.Pos(ptr+"/"+b.keyword), "unreachable-bound",
					"%s %s needs at least %s bytes of JSON, more than the %d bytes (max_request_bytes) a call's arguments may have, so no call can carry this value",
					b.keyword, n, need, limit)
			}
		}
	})
	return l
}

// lowerBounds are the keywords unreachableBounds checks, each with the
// size of the smallest JSON text that meets a bound of n.
var lowerBounds = []struct {
	keyword string
	bytes   func(n *big.Int) *big.Int
}{
	{"minLength", func(n *big.Int) *big.Int { return new(big.Int).Add(n, big.NewInt(2)) }},                                      // n one-byte characters and two quotes
	{"minItems", func(n *big.Int) *big.Int { return new(big.Int).Add(new(big.Int).Lsh(n, 1), big.NewInt(1)) }},                  // n one-byte items, n-1 commas, two brackets
	{"minProperties", func(n *big.Int) *big.Int { return new(big.Int).Add(new(big.Int).Mul(n, big.NewInt(5)), big.NewInt(1)) }}, // n members "k":0 and commas
}

// bound reads an integral keyword value written as any JSON number.
func bound(v any) (*big.Int, bool) {
	num, ok := v.(json.Number)
	if !ok {
		return nil, false
	}
	r, ok := new(big.Rat).SetString(num.String())
	if !ok || !r.IsInt() {
		return nil, false
	}
	return r.Num(), true
}
