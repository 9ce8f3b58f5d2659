package protocol

import (
	"fmt"
	"os"
	"sort"
)

// Kind names the Bundle type of a value, as the CETP tables write it.
type Kind uint8

// The Bundle types that CETP uses.
const (
	KindInt Kind = iota + 1
	KindLong
	KindString
	KindIntArray
	KindBoolean
	KindResolution
	KindFileDescriptor
)

// String returns the name of the Bundle type as the spec tables write it.
func (k Kind) String() string {
	switch k {
	case KindInt:
		return "Int"
	case KindLong:
		return "Long"
	case KindString:
		return "String"
	case KindIntArray:
		return "int[]"
	case KindBoolean:
		return "Boolean"
	case KindResolution:
		return "PendingIntent"
	case KindFileDescriptor:
		return "ParcelFileDescriptor"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Value is one typed Bundle value. The implementations are Int, Long,
// String, IntArray, Boolean, *Resolution and FileDescriptor; no other type
// can be stored in a Bundle.
type Value interface {
	// Kind reports the Bundle type of the value.
	Kind() Kind
	isValue()
}

// Int is a Bundle Int (32-bit).
type Int int32

// Long is a Bundle Long (64-bit).
type Long int64

// String is a Bundle String.
type String string

// IntArray is a Bundle int[].
type IntArray []int32

// Boolean is a Bundle Boolean.
type Boolean bool

// Resolution is the Go analogue of the explicit, immutable PendingIntent of
// §4.3: an opaque value that a transport hands to the Consumer and later
// launches through the Provider that created it. Only the Provider can
// interpret ID.
type Resolution struct {
	// ID identifies the pending user action inside the Provider.
	ID string
}

// FileDescriptor is the Go analogue of a read-only ParcelFileDescriptor.
// It travels out of band (SCM_RIGHTS on the Unix-socket binding); the
// binary Bundle codec refuses it.
type FileDescriptor struct {
	// File is the open, read-only file.
	File *os.File
}

// Kind implements Value.
func (Int) Kind() Kind { return KindInt }

// Kind implements Value.
func (Long) Kind() Kind { return KindLong }

// Kind implements Value.
func (String) Kind() Kind { return KindString }

// Kind implements Value.
func (IntArray) Kind() Kind { return KindIntArray }

// Kind implements Value.
func (Boolean) Kind() Kind { return KindBoolean }

// Kind implements Value.
func (*Resolution) Kind() Kind { return KindResolution }

// Kind implements Value.
func (FileDescriptor) Kind() Kind { return KindFileDescriptor }

func (Int) isValue()            {}
func (Long) isValue()           {}
func (String) isValue()         {}
func (IntArray) isValue()       {}
func (Boolean) isValue()        {}
func (*Resolution) isValue()    {}
func (FileDescriptor) isValue() {}

// Bundle is the typed key/value map that carries a CETP request (the extras
// of ContentResolver.call) or response. A nil Bundle is a valid empty one
// for reading.
type Bundle map[string]Value

// TypeError reports a known key that carries a value of the wrong Bundle
// type.
type TypeError struct {
	Key  string
	Want Kind
	Got  Kind
}

// Error implements error.
func (e *TypeError) Error() string {
	return fmt.Sprintf("key %q must be %s, got %s", e.Key, e.Want, e.Got)
}

// Has reports whether key is present.
func (b Bundle) Has(key string) bool {
	_, ok := b[key]
	return ok
}

// Int returns the Int at key. ok is false when the key is absent; err is a
// *TypeError when it holds another type.
func (b Bundle) Int(key string) (v int32, ok bool, err error) {
	raw, ok := b[key]
	if !ok {
		return 0, false, nil
	}
	x, isT := raw.(Int)
	if !isT {
		return 0, true, typeErr(key, KindInt, raw)
	}
	return int32(x), true, nil
}

// Long returns the Long at key, like Int.
func (b Bundle) Long(key string) (v int64, ok bool, err error) {
	raw, ok := b[key]
	if !ok {
		return 0, false, nil
	}
	x, isT := raw.(Long)
	if !isT {
		return 0, true, typeErr(key, KindLong, raw)
	}
	return int64(x), true, nil
}

// String returns the String at key, like Int.
func (b Bundle) String(key string) (v string, ok bool, err error) {
	raw, ok := b[key]
	if !ok {
		return "", false, nil
	}
	x, isT := raw.(String)
	if !isT {
		return "", true, typeErr(key, KindString, raw)
	}
	return string(x), true, nil
}

// IntArray returns the int[] at key, like Int.
func (b Bundle) IntArray(key string) (v []int32, ok bool, err error) {
	raw, ok := b[key]
	if !ok {
		return nil, false, nil
	}
	x, isT := raw.(IntArray)
	if !isT {
		return nil, true, typeErr(key, KindIntArray, raw)
	}
	return []int32(x), true, nil
}

// Boolean returns the Boolean at key, like Int.
func (b Bundle) Boolean(key string) (v bool, ok bool, err error) {
	raw, ok := b[key]
	if !ok {
		return false, false, nil
	}
	x, isT := raw.(Boolean)
	if !isT {
		return false, true, typeErr(key, KindBoolean, raw)
	}
	return bool(x), true, nil
}

// Resolution returns the resolution at key, like Int.
func (b Bundle) Resolution(key string) (v *Resolution, ok bool, err error) {
	raw, ok := b[key]
	if !ok {
		return nil, false, nil
	}
	x, isT := raw.(*Resolution)
	if !isT || x == nil {
		return nil, true, typeErr(key, KindResolution, raw)
	}
	return x, true, nil
}

// CheckKnownTypes returns a *TypeError for the first known key (in key
// order) whose value has another Bundle type than KeyKinds gives. Unknown
// keys are ignored, as §3.2 asks of unknown fields.
func (b Bundle) CheckKnownTypes() error {
	if b.knownTypesOK() {
		return nil
	}
	keys := make([]string, 0, len(b))
	for k := range b {
		if _, known := KeyKinds[k]; known {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		want := KeyKinds[k]
		if v := b[k]; v == nil || v.Kind() != want {
			return typeErr(k, want, v)
		}
		if r, isRes := b[k].(*Resolution); isRes && r == nil {
			return typeErr(k, want, nil)
		}
	}
	return nil
}

// knownTypesOK reports whether every known key of b has its kind, without
// the sorting that makes CheckKnownTypes report the first bad key.
func (b Bundle) knownTypesOK() bool {
	for k, v := range b {
		want, known := KeyKinds[k]
		if !known {
			continue
		}
		if v == nil || v.Kind() != want {
			return false
		}
		if r, isRes := v.(*Resolution); isRes && r == nil {
			return false
		}
	}
	return true
}

func typeErr(key string, want Kind, got Value) error {
	var k Kind
	if got != nil {
		k = got.Kind()
	}
	return &TypeError{Key: key, Want: want, Got: k}
}
