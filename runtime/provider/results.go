package provider

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"

	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/store"
)

// DefaultMaxFileResultBytes is the default of Options.MaxFileResultBytes.
const DefaultMaxFileResultBytes = 64 << 20

// mediaTypeJSON is the media_type of every file result.
const mediaTypeJSON = "application/json"

// fileData is the data object of a file result (§4.5).
type fileData struct {
	Kind      string `json:"kind"`
	MediaType string `json:"media_type"`
	SizeBytes int64  `json:"size_bytes"`
	SHA256    string `json:"sha256"`
}

// handle runs the handler and validates its result against the output
// schema (step 8); it returns the compacted result value. A result longer
// than limit bytes is RESULT_TOO_LARGE before it is decoded.
func (p *Provider) handle(ctx context.Context, t *tool, call *Call, args []byte, limit int) (json.RawMessage, *handlerFailure) {
	out, err := safeCall(ctx, t.Handler, call, args)
	if err != nil {
		return nil, handlerError(err)
	}
	if len(out) > limit {
		return nil, p.tooLarge() // no envelope or file may hold it; do not spend time decoding it
	}
	return p.checkOutput(t, out)
}

// outcome places a result value: inline when its data object fits
// max_inline_result_bytes, otherwise as a file when allowFile, otherwise
// RESULT_TOO_LARGE.
func (p *Provider) outcome(value json.RawMessage, allowFile bool) (store.Outcome, *handlerFailure) {
	if p.fitsInline(value) {
		return store.Outcome{Data: protocol.InlineData(value)}, nil
	}
	if !allowFile || len(value) > p.opt.MaxFileResultBytes {
		return store.Outcome{}, p.tooLarge()
	}
	return p.fileOutcome(value)
}

// fitsInline reports whether the data object of value fits
// max_inline_result_bytes.
func (p *Provider) fitsInline(value json.RawMessage) bool {
	return len(value)+len(`{"kind":"inline","value":}`) <= p.limits.MaxInlineResultBytes
}

// resultLimit is the longest handler result a call may produce.
func (p *Provider) resultLimit(allowFile bool) int {
	if allowFile {
		return p.opt.MaxFileResultBytes
	}
	return p.limits.MaxInlineResultBytes
}

// fileOutcome stores value as a file result.
func (p *Provider) fileOutcome(value json.RawMessage) (store.Outcome, *handlerFailure) {
	sum := sha256.Sum256(value)
	data, err := json.Marshal(fileData{Kind: "file", MediaType: mediaTypeJSON, SizeBytes: int64(len(value)),
		SHA256: hex.EncodeToString(sum[:])})
	if err != nil {
		return store.Outcome{}, &handlerFailure{err: protocol.NewError(protocol.CodeInternalError, "Provider internal error")}
	}
	return store.Outcome{Data: data, File: value}, nil
}

func (p *Provider) tooLarge() *handlerFailure {
	return &handlerFailure{storable: true, err: protocol.NewError(protocol.CodeResultTooLarge,
		"the result exceeds %d bytes and cannot be sent inline", p.limits.MaxInlineResultBytes)}
}

// serve answers with a stored success outcome on session s: inline data
// as it is, a file result as a fresh read-only descriptor of the stored
// content when s negotiated large_results, RESULT_TOO_LARGE otherwise.
func (p *Provider) serve(echo protocol.Echo, s *session, out store.Outcome) protocol.Bundle {
	if out.File == nil {
		return protocol.Success(echo, out.Data)
	}
	f, e := p.fileFor(s, out)
	if e != nil {
		return protocol.ErrorBundle(echo, e)
	}
	b := protocol.Success(echo, out.Data)
	b[protocol.KeyResultFD] = protocol.FileDescriptor{File: f}
	return b
}

// fileFor opens a fresh descriptor of a stored file result for session s.
func (p *Provider) fileFor(s *session, out store.Outcome) (*os.File, *protocol.Error) {
	if s == nil || !s.has(protocol.CapLargeResults) {
		return nil, p.tooLarge().err
	}
	f, err := resultFile(p.opt.TempDir, out.File)
	if err != nil {
		return nil, protocol.NewError(protocol.CodeUnavailable, "cannot open the result file now").WithRetryable(true)
	}
	return f, nil
}

// resultFile writes content to an unlinked temporary file and returns it
// opened read-only: the descriptor is the only way to reach it, and the
// content belongs to one response (§4.5).
func resultFile(dir string, content []byte) (*os.File, error) {
	w, err := os.CreateTemp(dir, "cetp-result-*")
	if err != nil {
		return nil, fmt.Errorf("provider: result file: %w", err)
	}
	name := w.Name()
	defer os.Remove(name)
	if _, err := w.Write(content); err != nil {
		w.Close()
		return nil, fmt.Errorf("provider: write result file: %w", err)
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("provider: write result file: %w", err)
	}
	r, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("provider: reopen result file: %w", err)
	}
	return r, nil
}
