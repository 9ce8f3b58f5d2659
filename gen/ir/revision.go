package ir

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"

	"github.com/cetpgen/cetpgen/gen/internal/par"
	"github.com/cetpgen/cetpgen/gen/spec"
)

// revision hashes the tools (already sorted by name) as a canonical JSON
// array and returns the first 16 lowercase hex digits of the SHA-256. The
// tools are encoded in parallel and the array is hashed as it is written,
// rather than built whole first.
func revision(tools []*Tool) (string, error) {
	parts := make([][]byte, len(tools))
	errs := make([]error, len(tools))
	par.Each(len(tools), func(i int) { parts[i], errs[i] = revisionBytes(tools[i]) })
	if err := errors.Join(errs...); err != nil {
		return "", err
	}
	h := sha256.New()
	h.Write([]byte{'['})
	for i, part := range parts {
		if i > 0 {
			h.Write([]byte{','})
		}
		h.Write(part)
	}
	h.Write([]byte{']'})
	return hex.EncodeToString(h.Sum(nil)[:8]), nil
}

// revisionBytes is the canonical encoding of one tool's revision value,
// in a buffer sized for it: the schemas, escaped as JSON strings, are most
// of it.
func revisionBytes(t *Tool) ([]byte, error) {
	size := 2*(len(t.Input.JSON)+len(t.Output.JSON)) + 512
	return spec.AppendCanonical(make([]byte, 0, size), revisionValue(t))
}

// revisionValue is one tool as the canonical encoder sees it. Schemas enter
// as their canonical bytes, scopes with the access and sensitivity that are
// part of the tool's safety contract.
func revisionValue(t *Tool) map[string]any {
	scopes := make([]any, len(t.Scopes))
	for i, s := range t.Scopes {
		scopes[i] = map[string]any{"name": s.Name, "access": string(s.Access), "sensitivity": string(s.Sensitivity)}
	}
	a := t.Annotations
	return map[string]any{
		"name": t.Name, "title": t.Title, "description": t.Description,
		"input_schema": string(t.Input.JSON), "output_schema": string(t.Output.JSON),
		"scopes": scopes,
		"annotations": map[string]any{
			"effect": string(a.Effect), "risk": string(a.Risk), "destructive": a.Destructive,
			"idempotent": a.Idempotent, "open_world": a.OpenWorld,
			"confirmation": string(a.Confirmation), "execution": string(a.Execution),
		},
	}
}
