package diff

import (
	"errors"
	"reflect"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// A narrow side restricted to finitely many values (enum or const) is
// contained exactly when each value is valid against the wide side, which
// jsonschema/v6, the validator cetpgen checks schemas with, decides. The
// unions use this where branch-by-branch reasoning cannot decide.

// judgeURL is the location the schema documents are compiled under.
const judgeURL = "https://json-schema.org/cetpgen-diff/"

// judge compiles the subschemas of one comparison's documents on demand.
type judge struct {
	docs map[any]string // document (by identity) to its URL
	comp *jsonschema.Compiler
	n    int
}

// newJudge returns a judge with no documents.
func newJudge() *judge {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(noLoader{})
	return &judge{docs: map[any]string{}, comp: c}
}

// noLoader refuses every remote document: schemas are compared alone.
type noLoader struct{}

// Load refuses url.
func (noLoader) Load(url string) (any, error) { return nil, errNoRemote }

// errNoRemote is the error of a reference that leaves the document.
var errNoRemote = errors.New("diff: schemas are compared without remote documents")

// schemaOf compiles the subschema n. ok is false when n is not found in
// its document as is (a schema the comparison assembled that refers to
// definitions) or does not compile.
func (j *judge) schemaOf(n node) (*jsonschema.Schema, bool) {
	loc, ok := j.location(n)
	if !ok {
		return nil, false
	}
	s, err := j.comp.Compile(loc)
	return s, err == nil
}

// location returns the URL of n: its place in its document when it is
// found there unchanged, else a document of its own when it has no $ref.
func (j *judge) location(n node) (string, bool) {
	if at, ok := n.pointer(n.ptr, ""); ok && sameValue(at.v, n.v) {
		return j.add(n.root) + "#" + n.ptr, true
	}
	if hasRef(n.v) {
		return "", false
	}
	return j.add(n.v) + "#", true
}

// add registers a document, once, and returns its URL.
func (j *judge) add(doc any) string {
	key := identity(doc)
	if url, ok := j.docs[key]; ok {
		return url
	}
	j.n++
	url := judgeURL + itoa(j.n) + ".json"
	if err := j.comp.AddResource(url, doc); err != nil {
		url = judgeURL + "invalid"
	}
	j.docs[key] = url
	return url
}

// identity keys a decoded document by its address (maps), or its value.
func identity(v any) any {
	if m, ok := v.(map[string]any); ok {
		return reflect.ValueOf(m).UnsafePointer()
	}
	return v
}

// sameValue reports whether a and b are the same decoded value: the same
// map, or equal scalars.
func sameValue(a, b any) bool {
	ma, okA := a.(map[string]any)
	mb, okB := b.(map[string]any)
	if okA || okB {
		return okA && okB && reflect.ValueOf(ma).UnsafePointer() == reflect.ValueOf(mb).UnsafePointer()
	}
	return a == b
}

// valuesIn decides whether every value is valid against the wide node. It
// returns the values that are not, and decided false when the wide node
// cannot be compiled alone.
func (c *checker) valuesIn(wide node, vals []any) (rejected []any, decided bool) {
	if c.judge == nil {
		c.judge = newJudge()
	}
	s, ok := c.judge.schemaOf(wide)
	if !ok {
		return nil, false
	}
	for _, v := range vals {
		if s.Validate(v) != nil {
			rejected = append(rejected, v)
		}
	}
	return rejected, true
}
