package cetpcmd

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/cetpgen/cetpgen/runtime/cliout"
)

// report prints err as {"error": ...} on w and returns the exit code.
func report(w io.Writer, err error) int { return cliout.Report(w, err) }

// jsonOrNil returns data when it is JSON, else nil.
func jsonOrNil(data json.RawMessage) json.RawMessage {
	if len(data) == 0 || !json.Valid(data) {
		return nil
	}
	return data
}

// usageError is a problem with the command line.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// usagef returns a usageError with a formatted message.
func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}
