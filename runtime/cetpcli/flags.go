package cetpcli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/cetpgen/cetpgen/runtime/cliout"
)

// value is the pflag.Value of one flag: it checks every occurrence and
// keeps the JSON encoding of what was given.
type value struct {
	f     *Flag
	items []json.RawMessage
	texts []string
}

// newValue returns the empty value of f.
func newValue(f *Flag) *value { return &value{f: f} }

// Set implements pflag.Value: it checks s against the flag's kind and
// records it (appends it, for a list).
func (v *value) Set(s string) error {
	raw, err := encodeValue(v.f, s)
	if err != nil {
		return err
	}
	if !v.f.List {
		v.items, v.texts = nil, nil
	}
	v.items, v.texts = append(v.items, raw), append(v.texts, s)
	return nil
}

// String implements pflag.Value: what was given, else the default.
func (v *value) String() string {
	switch {
	case v.f.List:
		return "[" + strings.Join(v.texts, ",") + "]"
	case len(v.texts) > 0:
		return v.texts[0]
	case v.f.Default == "" && v.f.Kind == Boolean:
		return "false"
	}
	return v.f.Default
}

// Type implements pflag.Value. The names end in "Array" for lists and
// start with "int", "float" or "bool" for those kinds, so that the catalog
// reads the flag's JSON type from them.
func (v *value) Type() string {
	name := map[Kind]string{String: "string", Enum: "string", Integer: "int", Number: "float", Boolean: "bool", JSON: "json"}[v.f.Kind]
	if v.f.List {
		return name + "Array"
	}
	return name
}

// JSON returns the property's value: the item, or the array of items.
func (v *value) JSON() json.RawMessage {
	if !v.f.List {
		return v.items[0]
	}
	return json.RawMessage("[" + string(bytes.Join(asBytes(v.items), []byte(","))) + "]")
}

func asBytes(items []json.RawMessage) [][]byte {
	out := make([][]byte, len(items))
	for i, it := range items {
		out[i] = it
	}
	return out
}

var (
	integerLiteral = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)
	numberLiteral  = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)
)

// encodeValue checks s against f's kind and returns its JSON encoding.
func encodeValue(f *Flag, s string) (json.RawMessage, error) {
	switch f.Kind {
	case Integer:
		return literal(s, integerLiteral, "an integer")
	case Number:
		return literal(s, numberLiteral, "a number")
	case Boolean:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return nil, fmt.Errorf("%q is not true or false", s)
		}
		return json.RawMessage(strconv.FormatBool(b)), nil
	case Enum:
		return enumValue(f, s)
	case JSON:
		return compactJSON(s)
	}
	return jsonString(s), nil
}

func literal(s string, re *regexp.Regexp, what string) (json.RawMessage, error) {
	if !re.MatchString(s) {
		return nil, fmt.Errorf("%q is not %s", s, what)
	}
	return json.RawMessage(s), nil
}

func enumValue(f *Flag, s string) (json.RawMessage, error) {
	for _, e := range f.Enum {
		if e == s {
			return jsonString(s), nil
		}
	}
	return nil, fmt.Errorf("%q is not one of %s", s, strings.Join(f.Enum, ", "))
}

// compactJSON returns the JSON value s without insignificant white space,
// or the position of its mistake (cliout.JSONError): the text is parsed
// a second time only when it is not valid.
func compactJSON(s string) (json.RawMessage, error) {
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		if jerr := cliout.JSONError([]byte(s)); jerr != nil {
			return nil, jerr
		}
		return nil, err
	}
	return b.Bytes(), nil
}

// jsonString encodes s as a JSON string without HTML escapes.
func jsonString(s string) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return bytes.TrimRight(b.Bytes(), "\n")
}

// Check reports whether s is a valid value of f, as the flag would take
// it from the command line.
func (f *Flag) Check(s string) error {
	if !knownKind(f.Kind) {
		return fmt.Errorf("unknown kind %q", f.Kind)
	}
	_, err := encodeValue(f, s)
	return err
}

func knownKind(k Kind) bool {
	switch k {
	case String, Integer, Number, Boolean, Enum, JSON:
		return true
	}
	return false
}
