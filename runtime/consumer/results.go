package consumer

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"regexp"

	"github.com/cetpgen/cetpgen/runtime/localschema"
	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// sha256RE is the form §4.5 gives a file result's digest.
var sha256RE = regexp.MustCompile(`^[0-9a-f]{64}$`)

// resultData is the data object of a tool result: inline (§4.2) or file
// (§4.5).
type resultData struct {
	Kind      string          `json:"kind"`
	Value     json.RawMessage `json:"value"`
	MediaType string          `json:"media_type"`
	SizeBytes int64           `json:"size_bytes"`
	SHA256    string          `json:"sha256"`
}

// result decodes the data object of a tool result and checks the value
// against the tool's output schema. The reply's file is always closed.
func (c *Client) result(ctx context.Context, tool string, r reply) (json.RawMessage, error) {
	defer r.close()
	if v, ok := inlineValue(r.data); ok {
		if err := c.checkOutput(ctx, tool, v); err != nil {
			return nil, err
		}
		return v, nil
	}
	var d resultData
	if err := json.Unmarshal(r.data, &d); err != nil {
		return nil, badResult("data: " + err.Error())
	}
	var v json.RawMessage
	switch {
	case d.Kind == "inline" && d.Value != nil:
		v = d.Value
	case d.Kind == "file":
		var err error
		if v, err = c.readFile(d, r.file); err != nil {
			return nil, err
		}
	default:
		return nil, badResult("result kind " + protocol.Truncate(d.Kind, 32) + " is not inline or file")
	}
	if err := c.checkOutput(ctx, tool, v); err != nil {
		return nil, err
	}
	return v, nil
}

// inlinePrefix and inlineSuffix enclose the value of an inline data
// object as a Provider writes it.
const (
	inlinePrefix = `{"kind":"inline","value":`
	inlineSuffix = `}`
)

// inlineValue returns V when data is exactly {"kind":"inline","value":V},
// the form a Provider writes, so that the value needs no decoding of its
// envelope; checkOutput then decodes V, which refuses anything but one
// JSON value. Any other form of data takes the general decoding.
func inlineValue(data []byte) (json.RawMessage, bool) {
	if len(data) <= len(inlinePrefix)+len(inlineSuffix) || string(data[:len(inlinePrefix)]) != inlinePrefix ||
		string(data[len(data)-len(inlineSuffix):]) != inlineSuffix {
		return nil, false
	}
	return data[len(inlinePrefix) : len(data)-len(inlineSuffix)], true
}

func badResult(reason string) error {
	return &ResponseError{Method: protocol.MethodExecuteTool, Reason: reason}
}

// readFile reads a file result (§4.5): only on a session with
// large_results, JSON only, within the local cap, exactly the declared
// size and digest. It reads at most one byte past the declared size.
func (c *Client) readFile(d resultData, f *os.File) (json.RawMessage, error) {
	s := c.Session()
	switch {
	case f == nil:
		return nil, badResult("file result without result_fd")
	case s == nil || !s.Has(protocol.CapLargeResults):
		return nil, badResult("file result on a session without large_results")
	case d.MediaType != "application/json":
		return nil, badResult("file result media_type is not application/json")
	case d.SizeBytes < 0 || d.SizeBytes > int64(c.opt.MaxResultBytes):
		return nil, badResult("file result size exceeds the local limit")
	case !sha256RE.MatchString(d.SHA256):
		return nil, badResult("file result sha256 is not 64 lowercase hex digits")
	}
	content, err := io.ReadAll(io.LimitReader(f, d.SizeBytes+1))
	if err != nil {
		return nil, badResult("read file result: " + err.Error())
	}
	if int64(len(content)) != d.SizeBytes {
		return nil, badResult("file result size differs from size_bytes")
	}
	if sum := sha256.Sum256(content); hex.EncodeToString(sum[:]) != d.SHA256 {
		return nil, badResult("file result digest differs from sha256")
	}
	if !json.Valid(content) {
		return nil, badResult("file result is not JSON")
	}
	return content, nil
}

// checkOutput validates a result value, inline or file, against the
// tool's output schema (§4.2, §4.5, §7.3). The tool list is fetched once
// per session, when the cached one was listed on another session or none
// is cached; a tool that is not listed (or was rejected, see caps.go), or
// whose output schema does not compile, has no result this client
// accepts. Over InProcess the schema check itself is the engine's.
func (c *Client) checkOutput(ctx context.Context, tool string, v json.RawMessage) error {
	if !c.cache.fresh(c.Session()) {
		if _, err := c.ListTools(ctx); err != nil {
			return err
		}
	}
	sch, ok := c.cache.output(tool)
	if !ok {
		return badResult("cannot verify the result: the tool is not listed, was rejected, or its output schema does not compile")
	}
	if c.engineChecked {
		return nil // the engine's own output check, against the same schema
	}
	doc, err := localschema.Decode(v)
	if err != nil {
		return badResult("result is not JSON")
	}
	if err := sch.Validate(doc); err != nil {
		return badResult("result does not match the tool's output schema")
	}
	return nil
}
