package cetpcmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/cetpgen/cetpgen/runtime/cliout"
	"io"
)

// printJSON writes data indented, with a final newline.
func printJSON(w io.Writer, data json.RawMessage) error {
	var b bytes.Buffer
	if err := json.Indent(&b, data, "", "  "); err != nil {
		return &cliout.TransportError{Err: fmt.Errorf("the Provider's answer is not JSON: %w", err)}
	}
	b.WriteByte('\n')
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("write the answer: %w", err)
	}
	return nil
}

// printValue encodes v as indented JSON on w.
func printValue(w io.Writer, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode the answer: %w", err)
	}
	return printJSON(w, data)
}
