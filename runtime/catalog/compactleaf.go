package catalog

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
)

// CompactLeaf is the reference --compact form of a full leaf: what
// compactWhole makes of it (the leaf's JSON decoded whole, stripped by
// compactValue and encoded again, which is what a leaf query with
// --compact wrote before compact forms were stored). The delivery gate
// holds every stored compact form to it.
//
// It gets those bytes without building the values --compact drops, and
// without the encoder's own scanner: a json.Decoder walks the leaf's
// members token by token, decodes each value kept as json.Unmarshal into
// an any would, and reads each value dropped into a discard, which checks
// its syntax and builds nothing. Every number of the leaf must also be a
// float64, the one failure decoding valid JSON into an any can have, which
// a discarded value does not show. Text that is not one JSON object, or
// that fails, goes through compactWhole, which also gives the error.
func CompactLeaf(full []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(full))
	kept := map[string]any{}
	ok := object(dec, func(key string) bool {
		if compactDrop[key] {
			return dec.Decode(&discard{}) == nil
		}
		v, ok := keptValue(dec, key)
		kept[key] = v
		return ok
	})
	if _, err := dec.Token(); !ok || err != io.EOF || !numbersFit(full) {
		return compactWhole(full)
	}
	return json.Marshal(kept)
}

// compactWhole decodes full whole, strips it with compactValue and encodes
// it again: the definition of the --compact form.
func compactWhole(full []byte) ([]byte, error) {
	var v any
	if err := json.Unmarshal(full, &v); err != nil {
		return nil, err
	}
	return json.Marshal(compactValue(v))
}

// discard is a JSON value read and thrown away.
type discard struct{}

// UnmarshalJSON keeps nothing of the value.
func (*discard) UnmarshalJSON([]byte) error { return nil }

// object reads an object from dec, calling member with each key after
// reading it; member reads the value. It reports false when the next value
// is not an object or member returned false.
func object(dec *json.Decoder, member func(key string) bool) bool {
	t, err := dec.Token()
	return err == nil && t == json.Delim('{') && members(dec, member)
}

// members reads the members of an object whose '{' dec has read, and
// its '}'.
func members(dec *json.Decoder, member func(key string) bool) bool {
	for dec.More() {
		t, err := dec.Token()
		key, isKey := t.(string)
		if err != nil || !isKey || !member(key) {
			return false
		}
	}
	t, err := dec.Token()
	return err == nil && t == json.Delim('}')
}

// keptValue decodes the next value of dec, that of a member --compact
// keeps, as compactObject leaves it: parameters without the keys dropped
// from each parameter; product, products and tools stripped by
// compactValue.
func keptValue(dec *json.Decoder, key string) (any, bool) {
	if key == "parameters" {
		return objectOr(dec, func() (any, bool) {
			params := map[string]any{}
			ok := members(dec, func(name string) bool {
				v, ok := objectOr(dec, func() (any, bool) { return keptParameter(dec) })
				params[name] = v
				return ok
			})
			return params, ok
		})
	}
	var v any
	if dec.Decode(&v) != nil {
		return nil, false
	}
	if key == "product" || key == "products" || key == "tools" {
		compactValue(v)
	}
	return v, true
}

// keptParameter decodes the rest of a parameter object whose '{' dec has
// read, without the keys --compact drops.
func keptParameter(dec *json.Decoder) (any, bool) {
	m := map[string]any{}
	ok := members(dec, func(key string) bool {
		if compactParamDrop[key] {
			return dec.Decode(&discard{}) == nil
		}
		var v any
		err := dec.Decode(&v)
		m[key] = v
		return err == nil
	})
	return m, ok
}

// objectOr reads the next value of dec: an object through rest, called
// once its '{' is read, and any other value as json.Unmarshal into an any
// decodes it (the decoder cannot look ahead, so that value's first token
// is read before its kind is known).
func objectOr(dec *json.Decoder, rest func() (any, bool)) (any, bool) {
	t, err := dec.Token()
	switch {
	case err != nil:
		return nil, false
	case t == json.Delim('{'):
		return rest()
	case t == json.Delim('['):
		arr := []any{}
		for dec.More() {
			var e any
			if dec.Decode(&e) != nil {
				return nil, false
			}
			arr = append(arr, e)
		}
		t, err := dec.Token()
		return arr, err == nil && t == json.Delim(']')
	default:
		return t, true
	}
}

// numbersFit reports whether every number of the valid JSON text data
// parses as a float64, as json.Unmarshal into an any requires. Only a
// number with an exponent or of more than 15 characters can be out of
// range, so only those are parsed.
func numbersFit(data []byte) bool {
	for i := 0; i < len(data); {
		switch c := data[i]; {
		case c == '"':
			end, ok := skipString(data, i+1)
			if !ok {
				return false
			}
			i = end
		case c == '-' || '0' <= c && c <= '9':
			j, long := i, false
			for ; j < len(data) && numberByte(data[j]); j++ {
				long = long || data[j] == 'e' || data[j] == 'E'
			}
			if long || j-i > 15 {
				if _, err := strconv.ParseFloat(string(data[i:j]), 64); err != nil {
					return false
				}
			}
			i = j
		default:
			i++
		}
	}
	return true
}

// numberByte reports whether c can occur in a JSON number.
func numberByte(c byte) bool {
	return '0' <= c && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}
