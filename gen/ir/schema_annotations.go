package ir

import "strings"

// Annotation returns the value of an annotation keyword ("description",
// "default", "examples") of the node as a reader of the schema sees it:
// the node's own, else that of the schema its reference stands for, and
// so on along the chain (a "$ref" beside a "description" keeps its own
// text; a bare "$ref" shows its target's).
func (n *Node) Annotation(key string) (any, bool) {
	for range 64 {
		if v, ok := n.Obj()[key]; ok {
			return v, true
		}
		if n.Kind != KindRef || n.Target == nil {
			return nil, false
		}
		n = n.Target
	}
	return nil, false
}

// Text returns a string annotation of the node (see Annotation) with its
// runs of white space collapsed to single spaces, or "".
func (n *Node) Text(key string) string {
	v, _ := n.Annotation(key)
	s, _ := v.(string)
	return strings.Join(strings.Fields(s), " ")
}
