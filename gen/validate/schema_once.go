package validate

import (
	"sync"

	"github.com/cetpgen/cetpgen/gen/diag"
	"github.com/cetpgen/cetpgen/gen/spec"
)

// validSchemas remembers, for one validation run, the schemas that passed
// checkSchema, keyed by their canonical JSON text (spec.Canonical sorts
// object keys, so equal schemas have equal text; package ir keeps the
// text as the schema's JSON). Whether a schema is valid depends on
// its JSON value alone (references resolve inside it, each is compiled on
// its own compiler), so a schema equal to one that passed passes too and
// is not checked and compiled again; one that failed is checked again at
// its own place, for diagnostics with its own positions. Tools of one
// Provider often repeat the same schema; the synthetic 1,000 tools repeat
// two.
type validSchemas struct {
	seen sync.Map // JSON text -> struct{}
}

// check runs checkSchema on the schema at ptr in doc unless an equal
// schema passed before. It returns the schema's canonical JSON too (nil
// when the value has none).
func (s *validSchemas) check(doc *spec.Doc, ptr string, v any) (diag.List, []byte) {
	key, err := spec.Canonical(v)
	if err != nil {
		return checkSchema(doc, ptr, v), nil
	}
	if _, ok := s.seen.Load(string(key)); ok {
		return nil, key
	}
	l := checkSchema(doc, ptr, v)
	if len(l) == 0 {
		s.seen.Store(string(key), struct{}{})
	}
	return l, key
}
