// Package localschema decodes JSON the way every schema check of the
// runtime needs it and compiles tool schemas that may reference only
// themselves (CETP v2 §3.2: $ref resolves inside the same document). The
// Provider engine, the Consumer and the serve helper's diagnostics share
// it, so a schema is read alike on both sides of the protocol.
package localschema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Decode decodes exactly one JSON value with numbers kept exact
// (json.Number), as jsonschema/v6 validates them.
func Decode(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("data after the top-level value")
	}
	return v, nil
}

// Compile compiles the decoded schema doc under url as Draft 2020-12. Any
// reference to another document is refused: nothing a schema says can make
// the runtime read a file or the network.
func Compile(url string, doc any) (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(refuseLoader{})
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	return c.Compile(url)
}

// refuseLoader refuses every external document.
type refuseLoader struct{}

func (refuseLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("external schema %q is not allowed: $ref must stay inside the schema", url)
}
