package spec

import (
	"strconv"
	"strings"
	"sync"

	"github.com/cetpgen/cetpgen/gen/internal/schemaref"
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

	// src is the file's text. Positions are needed only for diagnostics,
	// so the YAML node tree is not kept once Value is built: keeping it
	// would triple the memory a loaded spec holds. The first position
	// lookup parses src again, which yields the same tree.
	src      []byte
	rootOnce sync.Once
	root     *yaml.Node
}

// tree returns the YAML node tree of the document, parsing its text again
// on first use.
func (d *Doc) tree() *yaml.Node {
	d.rootOnce.Do(func() {
		if d.root == nil {
			d.root, _, _ = decodeDocuments(d.src)
		}
	})
	return d.root
}

// Pos returns the position of the value at the JSON pointer ptr, or of its
// nearest enclosing value when ptr does not exist (a missing key points at
// the mapping that lacks it).
func (d *Doc) Pos(ptr string) source.Pos {
	val, _, _ := d.find(ptr)
	return d.pos(val)
}

// KeyPos returns the position of the mapping key whose value is at ptr, or
// Pos(ptr) when that value is not a mapping entry.
func (d *Doc) KeyPos(ptr string) source.Pos {
	val, key, _ := d.find(ptr)
	if key != nil {
		return d.pos(key)
	}
	return d.pos(val)
}

// Has reports whether a value exists at ptr.
func (d *Doc) Has(ptr string) bool {
	_, _, ok := d.find(ptr)
	return ok
}

// find follows ptr through the YAML tree. It returns the deepest node
// reached, the key node of the last step when ptr resolved through a
// mapping, and whether ptr resolved whole. Positions are looked up only for
// diagnostics, so the tree is walked on demand instead of indexed.
func (d *Doc) find(ptr string) (val, key *yaml.Node, ok bool) {
	val = d.tree()
	if ptr == "" {
		return val, nil, true
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		child, k := step(deref(val), UnescapeToken(tok))
		if child == nil {
			return val, nil, false
		}
		val, key = child, k
	}
	return val, key, true
}

// step returns the child of n named by one pointer token, with its key node
// for mappings.
func step(n *yaml.Node, tok string) (child, key *yaml.Node) {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := deref(n.Content[i]); k.Value == tok {
				return n.Content[i+1], n.Content[i]
			}
		}
	case yaml.SequenceNode:
		if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(n.Content) && itoa(i) == tok {
			return n.Content[i], nil
		}
	}
	return nil, nil
}

// deref resolves an alias to the node it names.
func deref(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

// pos returns where n was written. A block mapping is placed at its first
// key, even when an anchor or a tag precedes it on the line before.
func (d *Doc) pos(n *yaml.Node) source.Pos {
	n = deref(n)
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
func EscapeToken(t string) string { return schemaref.Escape(t) }

// UnescapeToken reverses EscapeToken.
func UnescapeToken(t string) string { return schemaref.Unescape(t) }

// Parent returns the pointer of the value that contains ptr ("" for the
// root and for top-level values).
func Parent(ptr string) string {
	i := strings.LastIndexByte(ptr, '/')
	if i < 0 {
		return ""
	}
	return ptr[:i]
}
