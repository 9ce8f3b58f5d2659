package ir

import (
	"net/url"
	"sync"

	"github.com/cetpgen/cetpgen/gen/internal/schemaref"
)

// Graph is the resolved schema model of one tool schema: every
// subschema that typing reaches is one Node, whichever way it is reached
// (inline, through "$ref" by pointer, anchor or embedded "$id"), so each
// subschema has exactly one type and one name in every target.
type Graph struct {
	// Root is the node of the whole schema.
	Root *Node
	// Nodes are every node in the order built (depth first, members by
	// name), which is deterministic.
	Nodes []*Node
	// index is the document's reference index, from which Subschemas
	// lists the subschemas when a target first asks for them.
	index    *schemaref.Index
	subsOnce sync.Once
	subs     []*Subschema
	byPtr    map[string]*Subschema
}

// Subschemas are every subschema a validator evaluates, with its
// reference resolved (schema_checks.go); Subschemas()[0] is the root.
// Only a target that generates its own validator reads them, so they
// are listed on the first call, once (safe for concurrent callers), not
// while the IR is built: a run of the Go target alone never lists them.
func (g *Graph) Subschemas() []*Subschema {
	g.subsOnce.Do(func() { g.subs, g.byPtr = subschemas(g.index) })
	return g.subs
}

// defaultBase is the base URI of a tool schema without "$id"; it only
// has to be absolute so that relative references resolve against it.
func defaultBase(tool, side string) string {
	return "urn:cetpgen:" + url.PathEscape(tool) + ":" + side
}
