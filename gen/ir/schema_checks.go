package ir

import "github.com/cetpgen/cetpgen/gen/internal/schemaref"

// Subschema is one subschema of a tool schema document as a validator
// sees it: every schema that an applicator keyword holds (properties,
// items, allOf, ...) and every "$ref" target, whether or not typing
// reaches it, each with its reference resolved once against the base
// URI in effect where it is written. A target generating its own
// validator (Kotlin) reads these instead of resolving "$ref" itself.
type Subschema struct {
	// ID is the subschema's index in Graph.Subschemas().
	ID int
	// Ptr is the subschema's JSON pointer in the tool schema document.
	Ptr string
	// Value is the subschema as decoded (map[string]any or bool).
	Value any
	// Ref is what "$ref" (or "$dynamicRef", resolved like it) names; nil
	// when the subschema has none.
	Ref *Subschema
	// Unresolved is a "$ref" that names nothing in the document (a spec
	// the validate stage refuses; kept so that a target can say so).
	Unresolved string
}

// Obj is the subschema's schema object (nil for a boolean schema).
func (s *Subschema) Obj() map[string]any {
	obj, _ := s.Value.(map[string]any)
	return obj
}

// At returns the subschema below s reached by the pointer tokens
// (a keyword, then a member name or an index), or nil when there is none.
func (g *Graph) At(s *Subschema, tokens ...string) *Subschema {
	g.Subschemas() // byPtr is listed with them
	ptr := s.Ptr
	for _, t := range tokens {
		ptr += "/" + schemaref.Escape(t)
	}
	return g.byPtr[ptr]
}

// subschemas lists every subschema of the document that the root reaches
// through applicator keywords and references, depth first in the order
// of schemaref.Each, each reference target after the subschemas below
// the referring one.
func subschemas(x *schemaref.Index) ([]*Subschema, map[string]*Subschema) {
	byPtr := map[string]*Subschema{}
	var list []*Subschema
	// visit lists the subschema v at ptr and what it reaches.
	var visit func(v any, ptr string) *Subschema
	visit = func(v any, ptr string) *Subschema {
		if s, ok := byPtr[ptr]; ok {
			return s
		}
		s := &Subschema{ID: len(list), Ptr: ptr, Value: v}
		byPtr[ptr] = s
		list = append(list, s)
		obj, ok := v.(map[string]any)
		if !ok {
			return s
		}
		schemaref.Each(obj, ptr, func(sub any, subPtr string) { visit(sub, subPtr) })
		if ref := refOf(obj); ref != "" {
			if target, err := x.Resolve(x.Base(ptr), ref); err == nil {
				tv, _ := schemaref.ValueAt(x.Root, target)
				s.Ref = visit(tv, target)
			} else {
				s.Unresolved = ref
			}
		}
		return s
	}
	visit(x.Root, "")
	return list, byPtr
}
