package provider

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/cetpgen/cetpgen/runtime/localschema"
	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Bounds on the details of a schema violation.
const (
	maxViolations       = 8
	maxViolationMessage = 200
	maxLocationBytes    = 200
)

// compileSchema compiles one tool schema once, as Draft 2020-12, with no
// loader for other documents.
func compileSchema(tool, which string, raw json.RawMessage) (*jsonschema.Schema, error) {
	doc, err := decodeJSON(raw)
	if err != nil {
		return nil, fmt.Errorf("tool %s: %s schema: %w", tool, which, err)
	}
	if obj, ok := doc.(map[string]any); ok {
		if d, has := obj["$schema"]; has && d != protocol.SchemaDialect {
			return nil, fmt.Errorf("tool %s: %s schema: dialect %v is not %s", tool, which, d, protocol.SchemaDialect)
		}
	}
	sch, err := localschema.Compile("urn:cetp:tool:"+tool+":"+which, doc)
	if err != nil {
		return nil, fmt.Errorf("tool %s: %s schema: %w", tool, which, err)
	}
	return sch, nil
}

// decodeJSON decodes exactly one JSON value with numbers kept exact.
func decodeJSON(raw []byte) (any, error) {
	v, err := localschema.Decode(raw)
	if err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	return v, nil
}

// violation is one entry of INVALID_ARGS error_details.
type violation struct {
	Instance string `json:"instance"`
	Keyword  string `json:"keyword"`
	Message  string `json:"message"`
}

// violations flattens a validation error into at most maxViolations bounded
// entries.
func violations(err error) []violation {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []violation{{Message: protocol.Truncate(err.Error(), maxViolationMessage)}}
	}
	out := []violation{}
	for _, u := range ve.BasicOutput().Errors {
		if len(out) == maxViolations {
			break
		}
		if u.Error == nil {
			continue
		}
		out = append(out, violation{
			Instance: protocol.Truncate(u.InstanceLocation, maxLocationBytes),
			Keyword:  protocol.Truncate(u.KeywordLocation, maxLocationBytes),
			Message:  protocol.Truncate(u.Error.String(), maxViolationMessage),
		})
	}
	return out
}
