package serve

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/cetpgen/cetpgen/runtime/localschema"
	"log/slog"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// outputSchema is a tool's output schema, compiled on the first result
// that needs explaining: the engine has already rejected that result, so
// the happy path never pays for a second validation.
type outputSchema struct {
	tool string
	raw  json.RawMessage

	once sync.Once
	sch  *jsonschema.Schema
	err  error
}

// violation returns the log attributes of the first way out breaks the
// schema, or nil when it does not.
func (o *outputSchema) violation(out json.RawMessage) []slog.Attr {
	if o == nil {
		return nil
	}
	v, err := localschema.Decode(out)
	if err != nil {
		return []slog.Attr{slog.String("output_error", "the result is not one JSON value: "+err.Error())}
	}
	o.once.Do(o.compile)
	if o.err != nil {
		return []slog.Attr{slog.String("output_error", o.err.Error())}
	}
	err = o.sch.Validate(v)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []slog.Attr{slog.String("output_error", err.Error())}
	}
	var found []slog.Attr
	n := 0
	for _, u := range ve.BasicOutput().Errors {
		if u.Error == nil {
			continue
		}
		if n == 0 {
			found = []slog.Attr{slog.String("output_pointer", u.InstanceLocation), slog.String("schema_pointer", u.KeywordLocation),
				slog.String("output_error", u.Error.String())}
		}
		n++
	}
	return append(found, slog.Int("output_violations", n))
}

func (o *outputSchema) compile() {
	doc, err := localschema.Decode(o.raw)
	if err != nil {
		o.err = fmt.Errorf("output schema of %s: %w", o.tool, err)
		return
	}
	o.sch, o.err = localschema.Compile("urn:cetp:tool:"+o.tool+":output", doc)
}
