package kotlin

import (
	"strings"

	"github.com/cetpgen/cetpgen/gen/internal/schemaref"
	"github.com/cetpgen/cetpgen/gen/ir"
)

// subIndex finds the subschemas below one another in a graph without
// building their pointers: it holds each subschema under the pointer one
// token up and under the pointer two tokens up, the two ways its parent
// names it (a keyword, or a keyword and a member name or index).
type subIndex struct {
	g    *ir.Graph
	subs map[subKey]*ir.Subschema
}

// subKey is a parent's pointer and the escaped tokens below it; two says
// tok is a second token (it may be empty: a member named "").
type subKey struct {
	parent, kw, tok string
	two             bool
}

// newSubIndex indexes the subschemas of g.
func newSubIndex(g *ir.Graph) subIndex {
	x := subIndex{g: g, subs: make(map[subKey]*ir.Subschema, 2*len(g.Subschemas()))}
	for _, s := range g.Subschemas() {
		p1, t1, ok := cutLastToken(s.Ptr)
		if !ok {
			continue
		}
		x.subs[subKey{parent: p1, kw: t1}] = s
		if p2, t2, ok := cutLastToken(p1); ok {
			x.subs[subKey{parent: p2, kw: t2, tok: t1, two: true}] = s
		}
	}
	return x
}

// cutLastToken splits a JSON pointer into its parent and last token.
func cutLastToken(ptr string) (parent, token string, ok bool) {
	i := strings.LastIndexByte(ptr, '/')
	if i < 0 {
		return "", "", false
	}
	return ptr[:i], ptr[i+1:], true
}

// at returns the subschema below s reached by the pointer tokens, or nil
// when the graph has none, as ir.Graph.At does.
func (x subIndex) at(s *ir.Subschema, tokens ...string) *ir.Subschema {
	switch len(tokens) {
	case 1:
		return x.subs[subKey{parent: s.Ptr, kw: schemaref.Escape(tokens[0])}]
	case 2:
		return x.subs[subKey{parent: s.Ptr, kw: schemaref.Escape(tokens[0]), tok: schemaref.Escape(tokens[1]), two: true}]
	}
	return x.g.At(s, tokens...)
}
