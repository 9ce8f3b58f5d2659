package spec

import (
	"strings"

	"github.com/cetpgen/cetpgen/gen/source"
	"gopkg.in/yaml.v3"
)

// Doc is one parsed spec file: its JSON value and where each part of it was
// written.
type Doc struct {
	// Path is the file's display path (the spec directory as the user named
	// it, joined with the file's path inside it).
	Path string
	// Rel is the file's path inside the spec directory, with slashes.
	Rel string
	// Value is the file as a JSON value: map[string]any, []any, string,
	// json.Number, bool or nil.
	Value any

	values map[string]*yaml.Node
	keys   map[string]*yaml.Node
}

// Pos returns the position of the value at the JSON pointer ptr, or of its
// nearest enclosing value when ptr does not exist (a missing key points at
// the mapping that lacks it).
func (d *Doc) Pos(ptr string) source.Pos {
	for {
		if n, ok := d.values[ptr]; ok {
			return d.pos(n)
		}
		if ptr == "" {
			return source.FileStart(d.Path)
		}
		ptr = Parent(ptr)
	}
}

// KeyPos returns the position of the mapping key whose value is at ptr, or
// Pos(ptr) when that value is not a mapping entry.
func (d *Doc) KeyPos(ptr string) source.Pos {
	if n, ok := d.keys[ptr]; ok {
		return d.pos(n)
	}
	return d.Pos(ptr)
}

// Has reports whether a value exists at ptr.
func (d *Doc) Has(ptr string) bool {
	_, ok := d.values[ptr]
	return ok
}

// pos returns where n was written. A block mapping is placed at its first
// key, even when an anchor or a tag precedes it on the line before.
func (d *Doc) pos(n *yaml.Node) source.Pos {
	if n.Kind == yaml.MappingNode && n.Style&yaml.FlowStyle == 0 && len(n.Content) > 0 {
		n = n.Content[0]
	}
	return source.Pos{File: d.Path, Line: n.Line, Col: n.Column}
}

// Pointer joins tokens into a JSON pointer (RFC 6901), escaping each token.
func Pointer(tokens ...string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(EscapeToken(t))
	}
	return b.String()
}

// EscapeToken escapes one JSON pointer token ("~" -> "~0", "/" -> "~1").
func EscapeToken(t string) string {
	if !strings.ContainsAny(t, "~/") {
		return t
	}
	return strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1")
}

// UnescapeToken reverses EscapeToken.
func UnescapeToken(t string) string {
	if !strings.Contains(t, "~") {
		return t
	}
	return strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
}

// Parent returns the pointer of the value that contains ptr ("" for the
// root and for top-level values).
func Parent(ptr string) string {
	i := strings.LastIndexByte(ptr, '/')
	if i < 0 {
		return ""
	}
	return ptr[:i]
}
