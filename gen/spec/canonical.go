package spec

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"unicode/utf8"
)

// Canonical encodes a decoded JSON value deterministically: object keys
// sorted by their UTF-8 bytes, no insignificant white space, numbers as the
// exact literal written in the spec, strings with only the escapes JSON
// requires (", \, control characters), so every Unicode character and every
// property name survives unchanged.
func Canonical(v any) ([]byte, error) {
	return AppendCanonical(nil, v)
}

// AppendCanonical appends the canonical encoding of v to b.
func AppendCanonical(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case bool:
		return strconv.AppendBool(b, x), nil
	case json.Number:
		return append(b, x...), nil
	case string:
		return appendString(b, x), nil
	case []any:
		return appendArray(b, x)
	case map[string]any:
		return appendObject(b, x)
	}
	return nil, fmt.Errorf("canonical JSON: unsupported value of type %T", v)
}

// appendArray appends the canonical JSON of the array a to b.
func appendArray(b []byte, a []any) ([]byte, error) {
	b = append(b, '[')
	for i, item := range a {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = AppendCanonical(b, item); err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}

// appendObject appends the canonical JSON of the object m to b, its
// members in sorted key order.
func appendObject(b []byte, m map[string]any) ([]byte, error) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(appendString(b, k), ':')
		var err error
		if b, err = AppendCanonical(b, m[k]); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// hexDigits are the digits of a \u00XX escape, lower case.
const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string. Runs of characters that need
// no escape are copied whole: schema text is mostly such runs.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= 0x20 && c < utf8.RuneSelf && c != '"' && c != '\\':
			i++
			continue
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r != utf8.RuneError || size != 1 {
				i += size
				continue
			}
			b = append(append(b, s[start:i]...), `\ufffd`...)
		default:
			b = appendASCII(append(b, s[start:i]...), c)
		}
		i++
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendASCII appends the ASCII byte c to b as it stands inside a JSON
// string, escaped where JSON requires it.
func appendASCII(b []byte, c byte) []byte {
	switch {
	case c == '"' || c == '\\':
		return append(b, '\\', c)
	case c == '\n':
		return append(b, `\n`...)
	case c == '\r':
		return append(b, `\r`...)
	case c == '\t':
		return append(b, `\t`...)
	case c < 0x20:
		return append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
	}
	return append(b, c)
}
