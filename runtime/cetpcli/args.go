package cetpcli

import (
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/cetpgen/cetpgen/runtime/cliout"
	"github.com/spf13/cobra"
)

// maxJSONInput bounds the --json object read from stdin.
const maxJSONInput = 64 << 20

// buildArgs builds the args object of one call: the --json object, then
// the property of every flag given on the command line. A required
// property that neither sets is a usage error.
func buildArgs(cmd *cobra.Command, c *Command, values []*value, stdin io.Reader) (json.RawMessage, error) {
	obj := map[string]json.RawMessage{}
	if cmd.Flags().Changed(JSONFlag) {
		text, _ := cmd.Flags().GetString(JSONFlag)
		var err error
		if obj, err = parseObject(text, stdin); err != nil {
			return nil, err
		}
	}
	for i, f := range c.Flags {
		if cmd.Flags().Changed(f.Name) {
			obj[f.Property] = values[i].JSON()
		}
	}
	if missing := missingRequired(c, obj); len(missing) > 0 {
		return nil, usagef("missing required %s", strings.Join(missing, ", "))
	}
	return encodeObject(obj), nil
}

// parseObject decodes the --json text ("-" reads stdin) as one JSON
// object.
func parseObject(text string, stdin io.Reader) (map[string]json.RawMessage, error) {
	data := []byte(text)
	if text == "-" {
		var err error
		if data, err = io.ReadAll(io.LimitReader(stdin, maxJSONInput)); err != nil {
			return nil, usagef("--%s -: %v", JSONFlag, err)
		}
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil || obj == nil {
		if jerr := cliout.JSONError(data); jerr != nil {
			return nil, usagef("--%s: %v", JSONFlag, jerr)
		}
		return nil, usagef("--%s must be a JSON object, not %s", JSONFlag, jsonKind(data))
	}
	return obj, nil
}

// jsonKind names the kind of the JSON value data: an array, a string, a
// number, true, false or null.
func jsonKind(data []byte) string {
	switch b := bytes.TrimLeft(data, " \t\r\n"); {
	case len(b) == 0:
		return "nothing"
	case b[0] == '[':
		return "an array"
	case b[0] == '"':
		return "a string"
	case b[0] == 't' || b[0] == 'f':
		return "a boolean"
	case b[0] == 'n':
		return "null"
	}
	return "a number"
}

// missingRequired names the required properties obj lacks, each with the
// flag that sets it.
func missingRequired(c *Command, obj map[string]json.RawMessage) []string {
	var out []string
	for _, p := range c.Required {
		if _, ok := obj[p]; ok {
			continue
		}
		name := "property " + string(jsonString(p)) + " (in --" + JSONFlag + ")"
		if i := slices.IndexFunc(c.Flags, func(f Flag) bool { return f.Property == p }); i >= 0 {
			name = "--" + c.Flags[i].Name
		}
		out = append(out, name)
	}
	return out
}

// encodeObject encodes obj with its keys sorted and its values compacted,
// without HTML escapes.
func encodeObject(obj map[string]json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range slices.Sorted(maps.Keys(obj)) {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(jsonString(k))
		b.WriteByte(':')
		json.Compact(&b, obj[k])
	}
	b.WriteByte('}')
	return b.Bytes()
}
