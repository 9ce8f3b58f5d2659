package cliout

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// JSONError says why data is not one JSON value: the decoder's complaint
// and where it stopped, as the byte offset into data (1-based: the byte
// that could not be read, or the end) and, when data spans several
// lines, the line and column (both 1-based, the column in bytes). It
// returns nil when data is one JSON value.
func JSONError(data []byte) error {
	var v any
	err := json.Unmarshal(data, &v)
	if err == nil {
		return nil
	}
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return err
	}
	at := int(min(max(se.Offset, 1), int64(len(data))))
	if len(data) == 0 {
		return fmt.Errorf("no JSON value (empty input)")
	}
	return fmt.Errorf("invalid JSON at byte %d%s: %s", at, lineColumn(data, at), se.Error())
}

// lineColumn is " (line L, column C)" of the 1-based byte offset at in a
// multi-line data, else "".
func lineColumn(data []byte, at int) string {
	if !bytes.Contains(data, []byte("\n")) {
		return ""
	}
	before := data[:at-1]
	line := bytes.Count(before, []byte("\n")) + 1
	col := len(before) - bytes.LastIndexByte(before, '\n')
	return fmt.Sprintf(" (line %d, column %d)", line, col)
}
