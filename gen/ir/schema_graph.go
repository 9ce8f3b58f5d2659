package ir

import "net/url"

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
	// Subschemas are every subschema a validator evaluates, with its
	// reference resolved (schema_checks.go); Subschemas[0] is the root.
	Subschemas []*Subschema
	byPtr      map[string]*Subschema
}

// defaultBase is the base URI of a tool schema without "$id"; it only
// has to be absolute so that relative references resolve against it.
func defaultBase(tool, side string) string {
	return "urn:cetpgen:" + url.PathEscape(tool) + ":" + side
}
