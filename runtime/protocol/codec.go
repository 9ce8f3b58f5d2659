package protocol

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"
)

// Bounds of the binary Bundle codec.
const (
	// MaxBundleEntries is the largest number of keys a decoded Bundle may
	// hold.
	MaxBundleEntries = 256
	// MaxKeyBytes is the longest key a decoded Bundle may hold.
	MaxKeyBytes = 256
	// MaxIntArrayLen is the longest int[] a decoded Bundle may hold.
	MaxIntArrayLen = 1024
)

// ErrFileDescriptor is returned by MarshalBundle for a FileDescriptor,
// which only an fd-passing transport can carry.
var ErrFileDescriptor = errors.New("protocol: file descriptors travel out of band")

// MarshalBundle encodes b in the binary Bundle format: a uvarint entry
// count, then per entry (in key order) a uvarint-prefixed key, one kind
// byte and the value (Int and Long big-endian, Boolean one byte 0 or 1,
// String and Resolution ID uvarint-prefixed UTF-8 bytes, int[] a uvarint
// count of big-endian Ints).
func MarshalBundle(b Bundle) ([]byte, error) {
	return AppendBundle(nil, b)
}

// AppendBundle appends the binary Bundle format of b (see MarshalBundle)
// to out, for a transport that reuses its buffers.
func AppendBundle(out []byte, b Bundle) ([]byte, error) {
	var small [16]string
	keys := small[:0]
	for k := range b {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out = binary.AppendUvarint(out, uint64(len(keys)))
	for _, k := range keys {
		out = appendBytes(out, k)
		var err error
		if out, err = appendValue(out, b[k]); err != nil {
			return nil, fmt.Errorf("protocol: key %q: %w", k, err)
		}
	}
	return out, nil
}

func appendBytes(out []byte, s string) []byte {
	out = binary.AppendUvarint(out, uint64(len(s)))
	return append(out, s...)
}

func appendValue(out []byte, v Value) ([]byte, error) {
	if v == nil {
		return nil, errors.New("nil value")
	}
	out = append(out, byte(v.Kind()))
	switch x := v.(type) {
	case Int:
		return binary.BigEndian.AppendUint32(out, uint32(x)), nil
	case Long:
		return binary.BigEndian.AppendUint64(out, uint64(x)), nil
	case String:
		return appendBytes(out, string(x)), nil
	case Boolean:
		if x {
			return append(out, 1), nil
		}
		return append(out, 0), nil
	case IntArray:
		out = binary.AppendUvarint(out, uint64(len(x)))
		for _, n := range x {
			out = binary.BigEndian.AppendUint32(out, uint32(n))
		}
		return out, nil
	case *Resolution:
		if x == nil {
			return nil, errors.New("nil resolution")
		}
		return appendBytes(out, x.ID), nil
	case FileDescriptor:
		return nil, ErrFileDescriptor
	}
	return nil, fmt.Errorf("unsupported value type %T", v)
}

// UnmarshalBundle decodes the binary Bundle format written by
// MarshalBundle. It rejects trailing bytes, duplicate keys, unknown kinds,
// file descriptors and anything past the codec's bounds; it never
// allocates more than a small multiple of len(data).
func UnmarshalBundle(data []byte) (Bundle, error) {
	d := decoder{buf: data}
	n, err := d.uvarint()
	if err != nil {
		return nil, err
	}
	if n > MaxBundleEntries {
		return nil, fmt.Errorf("protocol: %d entries exceed %d", n, MaxBundleEntries)
	}
	b := make(Bundle, n)
	for i := uint64(0); i < n; i++ {
		k, err := d.str(MaxKeyBytes)
		if err != nil {
			return nil, fmt.Errorf("protocol: key %d: %w", i, err)
		}
		if _, dup := b[k]; dup {
			return nil, fmt.Errorf("protocol: duplicate key %q", k)
		}
		v, err := d.value()
		if err != nil {
			return nil, fmt.Errorf("protocol: key %q: %w", k, err)
		}
		b[k] = v
	}
	if len(d.buf) != 0 {
		return nil, fmt.Errorf("protocol: %d trailing bytes", len(d.buf))
	}
	return b, nil
}

type decoder struct{ buf []byte }

var errShort = errors.New("truncated")

func (d *decoder) uvarint() (uint64, error) {
	v, n := binary.Uvarint(d.buf)
	if n <= 0 {
		return 0, errors.New("protocol: bad uvarint")
	}
	d.buf = d.buf[n:]
	return v, nil
}

func (d *decoder) take(n uint64) ([]byte, error) {
	if n > uint64(len(d.buf)) {
		return nil, errShort
	}
	p := d.buf[:n]
	d.buf = d.buf[n:]
	return p, nil
}

func (d *decoder) str(max uint64) (string, error) {
	n, err := d.uvarint()
	if err != nil {
		return "", err
	}
	if n > max {
		return "", fmt.Errorf("length %d exceeds %d", n, max)
	}
	p, err := d.take(n)
	return string(p), err
}

func (d *decoder) value() (Value, error) {
	kb, err := d.take(1)
	if err != nil {
		return nil, err
	}
	switch Kind(kb[0]) {
	case KindInt:
		p, err := d.take(4)
		if err != nil {
			return nil, err
		}
		return Int(int32(binary.BigEndian.Uint32(p))), nil
	case KindLong:
		p, err := d.take(8)
		if err != nil {
			return nil, err
		}
		return Long(int64(binary.BigEndian.Uint64(p))), nil
	case KindString:
		s, err := d.str(math.MaxInt32)
		return String(s), err
	case KindBoolean:
		return d.boolean()
	case KindIntArray:
		return d.intArray()
	case KindResolution:
		s, err := d.str(MaxKeyBytes)
		if err != nil {
			return nil, err
		}
		return &Resolution{ID: s}, nil
	case KindFileDescriptor:
		return nil, ErrFileDescriptor
	}
	return nil, fmt.Errorf("unknown kind %d", kb[0])
}

func (d *decoder) boolean() (Value, error) {
	p, err := d.take(1)
	if err != nil {
		return nil, err
	}
	if p[0] > 1 {
		return nil, fmt.Errorf("bad boolean %d", p[0])
	}
	return Boolean(p[0] == 1), nil
}

func (d *decoder) intArray() (Value, error) {
	n, err := d.uvarint()
	if err != nil {
		return nil, err
	}
	if n > MaxIntArrayLen {
		return nil, fmt.Errorf("int[] of %d exceeds %d", n, MaxIntArrayLen)
	}
	p, err := d.take(4 * n)
	if err != nil {
		return nil, err
	}
	arr := make(IntArray, n)
	for i := range arr {
		arr[i] = int32(binary.BigEndian.Uint32(p[4*i:]))
	}
	return arr, nil
}

func msDuration(ms int64) time.Duration {
	if ms <= 0 {
		return 0
	}
	if ms > math.MaxInt64/int64(time.Millisecond) {
		return math.MaxInt64
	}
	return time.Duration(ms) * time.Millisecond
}
