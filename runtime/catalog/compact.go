package catalog

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// compactDrop lists the keys --compact removes from envelopes, products and
// tools (dws stripSchemaPayloadCompact).
var compactDrop = map[string]bool{
	"agent_metadata_source": true, "agent_source_refs": true, "agent_summary_source": true,
	"effect_source": true, "metadata_source": true, "source": true, "agent_metadata": true,
	"interface_metadata": true, "field_provenance": true, "reviewed": true, "name": true,
	"path": true, "cli_name": true, "primary_cli_path": true, "is_alias": true,
	"has_parameters": true, "parameter_count": true, "product_id": true, "display": true,
	"title": true, "group": true, "source_product_id": true, "aliases": true,
	"catalog_hash": true, "surface_hash": true, "workflow_refs": true, "prerequisites": true,
	"tips": true, "interface_ref": true,
}

// compactParamDrop lists the keys --compact removes from each parameter.
var compactParamDrop = map[string]bool{
	"interface_description": true, "interface_type": true, "property": true, "field_provenance": true,
}

// compactValue strips a decoded payload (envelope, product or tool) in
// place. Parameter names are map keys and are never stripped.
func compactValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		compactObject(x)
	case []any:
		for _, e := range x {
			compactValue(e)
		}
	}
	return v
}

func compactObject(m map[string]any) {
	for k := range m {
		if compactDrop[k] {
			delete(m, k)
		}
	}
	for k, v := range m {
		if k == "parameters" {
			compactParams(v)
			continue
		}
		if k == "product" || k == "products" || k == "tools" {
			compactValue(v)
		}
	}
}

func compactParams(v any) {
	params, _ := v.(map[string]any)
	for _, p := range params {
		pm, _ := p.(map[string]any)
		for k := range pm {
			if compactParamDrop[k] {
				delete(pm, k)
			}
		}
	}
}

// compactStored returns the --compact form of a full leaf as the encoder
// stores it: the same bytes as CompactLeaf, but members --compact drops
// are skipped unread, so only the few kept values are decoded. Input that
// is not a canonical leaf goes through CompactLeaf.
func compactStored(full []byte) ([]byte, error) {
	p := &leafParser{data: full, ok: true}
	m := map[string]any{}
	p.members(func(key string, raw []byte) {
		if !compactDrop[key] {
			m[key] = compactKept(key, raw, p)
		}
	})
	if !p.ok || p.pos != len(full) {
		return CompactLeaf(full)
	}
	return json.Marshal(m)
}

// compactKept decodes the value raw of a kept member and strips it as
// compactObject would; a value that does not decode fails p.
func compactKept(key string, raw []byte, p *leafParser) any {
	if key == "parameters" && len(raw) > 0 && raw[0] == '{' {
		return compactParamsRaw(raw, p)
	}
	v, ok := decodeKept(raw)
	if !ok {
		p.ok = false
		return nil
	}
	if key == "product" || key == "products" || key == "tools" {
		compactValue(v)
	}
	return v
}

// compactParamsRaw decodes a parameters object without the parameter keys
// --compact drops.
func compactParamsRaw(raw []byte, outer *leafParser) any {
	p := &leafParser{data: raw, ok: true}
	params := map[string]any{}
	p.members(func(name string, praw []byte) {
		params[name] = compactParamRaw(praw, outer)
	})
	if !p.ok || p.pos != len(raw) {
		outer.ok = false
	}
	return params
}

// compactParamRaw decodes one parameter without the keys --compact drops.
func compactParamRaw(raw []byte, outer *leafParser) any {
	if len(raw) == 0 || raw[0] != '{' {
		v, ok := decodeKept(raw)
		outer.ok = outer.ok && ok
		return v
	}
	p := &leafParser{data: raw, ok: true}
	m := map[string]any{}
	p.members(func(key string, vraw []byte) {
		if compactParamDrop[key] {
			return
		}
		v, ok := decodeKept(vraw)
		outer.ok = outer.ok && ok
		m[key] = v
	})
	if !p.ok || p.pos != len(raw) {
		outer.ok = false
	}
	return m
}

// decodeKept decodes a kept value as json.Unmarshal into an any would:
// a string without escapes, true or false directly, anything else through
// json.Unmarshal.
func decodeKept(raw []byte) (any, bool) {
	switch string(raw) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	if n := len(raw); n >= 2 && raw[0] == '"' && raw[n-1] == '"' && plainStringBytes(raw[1:n-1]) {
		return string(raw[1 : n-1]), true
	}
	var v any
	return v, json.Unmarshal(raw, &v) == nil
}

// plainStringBytes reports whether b, the inside of a JSON string, needs no
// decoding: no quote, backslash or control byte, and valid UTF-8.
func plainStringBytes(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c == '"' || c == '\\' {
			return false
		}
	}
	return utf8.Valid(b)
}

// members reads a compact object, calling member with each key and the
// bytes of its value. Keys with escapes fail p. Values are skipped with
// skipValue, unchecked: a kept value is decoded afterwards, and the
// delivery gate holds the result to CompactLeaf.
func (p *leafParser) members(member func(key string, raw []byte)) {
	if !p.byte('{') {
		return
	}
	for i := 0; p.ok && !p.peek('}'); i++ {
		if i > 0 && !p.byte(',') {
			return
		}
		key := p.key()
		if !p.byte(':') {
			return
		}
		end, ok := skipValue(p.data, p.pos)
		if !ok {
			p.ok = false
			return
		}
		member(string(key), p.data[p.pos:end])
		p.pos = end
	}
}

// skipValue returns the end of the compact JSON value that starts at
// data[pos]: a string or container ends where it closes (brackets are
// counted outside strings), anything else before the next ',', '}' or ']'.
func skipValue(data []byte, pos int) (int, bool) {
	if pos >= len(data) {
		return 0, false
	}
	switch data[pos] {
	case '"':
		return skipString(data, pos+1)
	case '{', '[':
		return skipContainer(data, pos)
	}
	for i := pos; i < len(data); i++ {
		if c := data[i]; c == ',' || c == '}' || c == ']' {
			return i, i > pos
		}
	}
	return 0, false
}

// skipContainer returns the end of the object or array at data[pos].
func skipContainer(data []byte, pos int) (int, bool) {
	depth := 0
	for i := pos; i < len(data); i++ {
		switch data[i] {
		case '"':
			end, ok := skipString(data, i+1)
			if !ok {
				return 0, false
			}
			i = end - 1
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return i + 1, true
			}
		}
	}
	return 0, false
}

// skipString returns the offset after the closing quote of the string
// whose contents start at data[i], crossing it from quote to quote.
func skipString(data []byte, i int) (int, bool) {
	for i < len(data) {
		q := bytes.IndexByte(data[i:], '"')
		if q < 0 {
			return 0, false
		}
		i += q + 1
		if escapingBackslashes(data[:i-1])%2 == 0 {
			return i, true
		}
	}
	return 0, false
}

// escapingBackslashes counts the backslashes that end b.
func escapingBackslashes(b []byte) int {
	n := 0
	for n < len(b) && b[len(b)-1-n] == '\\' {
		n++
	}
	return n
}
