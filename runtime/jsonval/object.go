package jsonval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
)

// Member is a declared member that a struct tag cannot carry (an empty
// name, "-", a name with a comma or quote): the struct's field has the
// tag json:"-" and generated methods pass it here by name.
type Member struct {
	Name string
	// Value is the field's value (for encoding) or a pointer to the field
	// (for decoding).
	Value any
	// Omit leaves the member out when Value is its type's zero value.
	Omit bool
}

// MarshalObject encodes plain, a struct value without JSON methods, as an
// object, then appends the named members and the extra members in sorted
// order. An extra member named like a declared one (in declared) is an
// error: it would encode the member twice.
//
// Generated code calls it from MarshalJSON:
//
//	func (v X) MarshalJSON() ([]byte, error) {
//		type plain X
//		return jsonval.MarshalObject(plain(v), xDeclared, nil, v.Extra)
//	}
func MarshalObject[E any](plain any, declared []string, named []Member, extra map[string]E) ([]byte, error) {
	data, err := json.Marshal(plain)
	if err != nil {
		return nil, err
	}
	if len(named) == 0 && len(extra) == 0 {
		return data, nil
	}
	if len(data) < 2 || data[0] != '{' || data[len(data)-1] != '}' {
		return nil, fmt.Errorf("jsonval: %T does not encode as an object", plain)
	}
	buf := bytes.NewBuffer(data[: len(data)-1 : len(data)-1])
	for _, m := range named {
		if m.Omit && isZero(m.Value) {
			continue
		}
		if err := appendMember(buf, m.Name, m.Value); err != nil {
			return nil, err
		}
	}
	for _, k := range slices.Sorted(maps.Keys(extra)) {
		if slices.Contains(declared, k) {
			return nil, fmt.Errorf("jsonval: extra member %q is a declared member", k)
		}
		if err := appendMember(buf, k, extra[k]); err != nil {
			return nil, err
		}
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// isZero reports whether v is nil or its type's zero value.
func isZero(v any) bool {
	return v == nil || reflect.ValueOf(v).IsZero()
}

// appendMember appends ,"name":value (no comma after the opening brace).
func appendMember(buf *bytes.Buffer, name string, value any) error {
	k, err := json.Marshal(name)
	if err != nil {
		return err
	}
	v, err := json.Marshal(value)
	if err != nil {
		return fmt.Errorf("jsonval: member %q: %w", name, err)
	}
	if b := buf.Bytes(); b[len(b)-1] != '{' {
		buf.WriteByte(',')
	}
	buf.Write(k)
	buf.WriteByte(':')
	buf.Write(v)
	return nil
}

// UnmarshalObject decodes data, an object, matching member names exactly
// (encoding/json alone matches struct fields case-insensitively): the
// declared members with tags into plain (a pointer to the struct without
// JSON methods), the named ones into their field pointers, and every
// other member into *extra, which is allocated when one exists. With
// extra nil, undeclared members are ignored (the schema admits none, and
// the runtime has refused them). null leaves the value unchanged.
//
//	func (v *X) UnmarshalJSON(data []byte) error {
//		type plain X
//		return jsonval.UnmarshalObject(data, (*plain)(v), xDeclared, nil, &v.Extra)
//	}
func UnmarshalObject[E any](data []byte, plain any, declared []string, named []Member, extra *map[string]E) error {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		return err
	}
	if obj == nil {
		return nil
	}
	tagged := make(map[string]json.RawMessage, len(declared))
	isNamed := map[string]bool{}
	for _, m := range named {
		isNamed[m.Name] = true
		if raw, ok := obj[m.Name]; ok {
			if err := json.Unmarshal(raw, m.Value); err != nil {
				return fmt.Errorf("member %q: %w", m.Name, err)
			}
		}
	}
	for _, k := range declared {
		if raw, ok := obj[k]; ok && !isNamed[k] {
			tagged[k] = raw
		}
	}
	if err := decodeTagged(tagged, plain); err != nil {
		return err
	}
	if extra == nil {
		return nil
	}
	return decodeExtra(obj, declared, extra)
}

// decodeTagged decodes the declared members into the struct.
func decodeTagged(tagged map[string]json.RawMessage, plain any) error {
	data, err := json.Marshal(tagged)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, plain)
}

// decodeExtra decodes the undeclared members into *extra.
func decodeExtra[E any](obj map[string]json.RawMessage, declared []string, extra *map[string]E) error {
	*extra = nil
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		if slices.Contains(declared, k) {
			continue
		}
		var v E
		if err := json.Unmarshal(obj[k], &v); err != nil {
			return fmt.Errorf("member %q: %w", k, err)
		}
		if *extra == nil {
			*extra = map[string]E{}
		}
		(*extra)[k] = v
	}
	return nil
}
