package catalog

import "bytes"

// unescapeHTML returns the JSON text b with the escapes json.Marshal
// writes for '<', '>' and '&' (\u003c, \u003e, \u0026) turned back into
// the characters, as dws's schema command writes them (an encoder with
// SetEscapeHTML(false)). The catalog file keeps json.Marshal's escapes,
// so that json.Compact of it stays json.Marshal of the catalog and
// source_hash is computed as dws computes it; only the printed
// projections are unescaped. Every backslash of valid JSON starts an
// escape, so the scan steps over each escape whole and never mistakes
// the text \\u003c (an escaped backslash, then u003c) for one. b is
// returned as it is when it holds none of them.
func unescapeHTML(b []byte) []byte {
	i := bytes.Index(b, []byte(`\u00`))
	if i < 0 {
		return b
	}
	out := make([]byte, 0, len(b))
	for i = 0; i < len(b); i++ {
		c := b[i]
		if c != '\\' || i+1 >= len(b) {
			out = append(out, c)
			continue
		}
		if b[i+1] == 'u' && i+6 <= len(b) {
			if r, ok := htmlEscapes[string(b[i+2:i+6])]; ok {
				out = append(out, r)
				i += 5
				continue
			}
		}
		out = append(out, c, b[i+1])
		i++
	}
	return out
}

var htmlEscapes = map[string]byte{"003c": '<', "003e": '>', "0026": '&'}
