package schemaref

import (
	"strconv"
	"strings"
)

// Escape encodes a member name as a JSON pointer token (RFC 6901).
func Escape(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// Unescape decodes a JSON pointer token.
func Unescape(tok string) string {
	if !strings.Contains(tok, "~") {
		return tok
	}
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
}

// ValueAt returns the value at the JSON pointer ptr of doc.
func ValueAt(doc any, ptr string) (any, bool) {
	v := doc
	if ptr == "" {
		return v, true
	}
	for rest, more := ptr[1:], true; more; {
		var tok string
		tok, rest, more = strings.Cut(rest, "/")
		tok = Unescape(tok)
		switch c := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = c[tok]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) || strconv.Itoa(i) != tok {
				return nil, false
			}
			v = c[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// Canonical re-escapes every token of a JSON pointer, so that two
// spellings of one location are one string.
func Canonical(ptr string) string {
	if ptr == "" {
		return ""
	}
	toks := strings.Split(ptr[1:], "/")
	for i, t := range toks {
		toks[i] = Escape(Unescape(t))
	}
	return "/" + strings.Join(toks, "/")
}

// LastToken is the last token of a JSON pointer, unescaped ("" for the
// root).
func LastToken(ptr string) string {
	i := strings.LastIndexByte(ptr, '/')
	if i < 0 {
		return ""
	}
	return Unescape(ptr[i+1:])
}
