package ir

import (
	"crypto/sha256"
	"encoding/hex"
)

// revision hashes the tools (already sorted by name) as a canonical JSON
// array and returns the first 16 lowercase hex digits of the SHA-256.
func revision(tools []*Tool) (string, error) {
	list := make([]any, len(tools))
	for i, t := range tools {
		list[i] = revisionValue(t)
	}
	data, err := Canonical(list)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:8]), nil
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
