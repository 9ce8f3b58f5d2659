package validate

import (
	"encoding/json"
	"sync"

	"github.com/cetpgen/cetpgen/gen/diag"
	"github.com/cetpgen/cetpgen/gen/spec"
)

// validSchemas remembers, for one validation run, the schemas that passed
// checkSchema, keyed by their JSON text (encoding/json sorts object keys,
// so equal schemas have equal text). Whether a schema is valid depends on
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
// schema passed before.
func (s *validSchemas) check(doc *spec.Doc, ptr string, v any) diag.List {
	key, err := json.Marshal(v)
	if err != nil {
		return checkSchema(doc, ptr, v)
	}
	if _, ok := s.seen.Load(string(key)); ok {
		return nil
	}
	l := checkSchema(doc, ptr, v)
	if len(l) == 0 {
		s.seen.Store(string(key), struct{}{})
	}
	return l
}
