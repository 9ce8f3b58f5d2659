package catalog

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// CompactLeaf is the reference --compact form of a full leaf: what
// compactWhole makes of it (the leaf's JSON decoded whole, stripped by
// compactValue and encoded again, which is what a leaf query with
// --compact wrote before compact forms were stored). The delivery gate
// holds every stored compact form to it.
//
// It gets those bytes without building the values --compact drops: the
// whole leaf must pass json.Valid, the check json.Unmarshal runs first,
// and every number in it must be a float64, the one failure decoding
// valid JSON into an any can have; the members of the valid text are then
// found by their delimiters, and only the members kept are decoded, each
// by json.Unmarshal. Text that fails, or that the member walk cannot
// split (it is not an object, or has white space between its tokens),
// goes through compactWhole, which also gives the error.
func CompactLeaf(full []byte) ([]byte, error) {
	if !json.Valid(full) || !numbersFit(full) {
		return compactWhole(full)
	}
	kept := map[string]any{}
	ok := validMembers(full, func(key string, raw []byte) bool {
		if compactDrop[key] {
			return true
		}
		v, ok := keptValue(key, raw)
		kept[key] = v
		return ok
	})
	if !ok {
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

// keptValue decodes the value raw of a member --compact keeps, as
// compactObject leaves it: parameters without the keys dropped from each
// parameter; product, products and tools stripped by compactValue.
func keptValue(key string, raw []byte) (any, bool) {
	if key == "parameters" && raw[0] == '{' {
		params := map[string]any{}
		ok := validMembers(raw, func(name string, praw []byte) bool {
			v, ok := keptParameter(praw)
			params[name] = v
			return ok
		})
		return params, ok
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return nil, false
	}
	if key == "product" || key == "products" || key == "tools" {
		compactValue(v)
	}
	return v, true
}

// keptParameter decodes one parameter without the keys --compact drops;
// a parameter that is not an object is decoded as it is.
func keptParameter(raw []byte) (any, bool) {
	var v any
	if raw[0] != '{' {
		return v, json.Unmarshal(raw, &v) == nil
	}
	m := map[string]any{}
	ok := validMembers(raw, func(key string, fraw []byte) bool {
		if compactParamDrop[key] {
			return true
		}
		var fv any
		err := json.Unmarshal(fraw, &fv)
		m[key] = fv
		return err == nil
	})
	return m, ok
}

// validMembers walks the object data, valid JSON without white space
// between its tokens, calling member with each key, decoded, and the
// bytes of its value, in order, while member returns true. It reports
// false when data is not such an object or member returned false.
func validMembers(data []byte, member func(key string, raw []byte) bool) bool {
	if len(data) < 2 || data[0] != '{' {
		return false
	}
	if string(data) == "{}" {
		return true
	}
	for pos := 1; ; {
		if pos >= len(data) || data[pos] != '"' {
			return false
		}
		end, ok := skipString(data, pos+1)
		if !ok || end >= len(data) || data[end] != ':' {
			return false
		}
		key, ok := memberKey(data[pos:end])
		vend, vok := skipValue(data, end+1)
		if !ok || !vok || !member(key, data[end+1:vend]) {
			return false
		}
		switch {
		case vend < len(data) && data[vend] == ',':
			pos = vend + 1
		case vend == len(data)-1 && data[vend] == '}':
			return true
		default:
			return false
		}
	}
}

// memberKey decodes a quoted key: as it is when it is plain ASCII, else
// through json.Unmarshal, which resolves escapes and replaces invalid
// UTF-8 as decoding the whole leaf would.
func memberKey(quoted []byte) (string, bool) {
	plain := true
	for _, c := range quoted[1 : len(quoted)-1] {
		if c == '\\' || c >= utf8.RuneSelf {
			plain = false
			break
		}
	}
	if plain {
		return string(quoted[1 : len(quoted)-1]), true
	}
	var k string
	return k, json.Unmarshal(quoted, &k) == nil
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
