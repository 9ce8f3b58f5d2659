package unixsock

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sort"

	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// Frame types. A client sends Call, Launch and Cancel frames; a server
// sends Result, Launched and GoAway frames.
const (
	typeCall     byte = 1
	typeResult   byte = 2
	typeLaunch   byte = 3
	typeLaunched byte = 4
	typeCancel   byte = 5
	typeGoAway   byte = 6
)

// Fixed bounds of the wire format.
const (
	// HardMaxFrame is the largest frame either side accepts, whatever its
	// options say: 64 MiB.
	HardMaxFrame = 64 << 20
	// MaxMethodBytes is the longest method name of a Call frame.
	MaxMethodBytes = 64
	// MaxResolutionIDBytes is the longest resolution ID of a Launch frame.
	MaxResolutionIDBytes = protocol.MaxKeyBytes
	// MaxReasonBytes is the longest reason of a GoAway frame.
	MaxReasonBytes = 1024
	// MaxFDsPerFrame is the largest number of descriptors one frame passes.
	MaxFDsPerFrame = 4
	// headerBytes is the length prefix, the type and the request number.
	headerBytes = 9
)

// frame is one decoded message. Which fields are set depends on typ.
type frame struct {
	typ        byte
	id         uint32
	method     string          // Call
	resolution string          // Launch
	reason     string          // GoAway
	bundle     protocol.Bundle // Call, Result, Launched: the in-band values
	fdKeys     []string        // Result: keys whose values are passed descriptors
}

// errFrame marks a frame that breaks the wire format.
var errFrame = errors.New("unixsock: malformed frame")

func frameErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errFrame, fmt.Sprintf(format, args...))
}

// appendFrame appends the bytes of f, length prefix included, to out[:0],
// so that a writer may reuse one buffer, and returns them with the
// descriptors its Bundle holds, in the order of its fd keys.
func appendFrame(out []byte, f *frame) ([]byte, []protocol.FileDescriptor, error) {
	out = append(out[:0], 0, 0, 0, 0, f.typ, 0, 0, 0, 0)
	binary.BigEndian.PutUint32(out[5:], f.id)
	out, fds, err := appendPayload(out, f)
	if err != nil {
		return nil, nil, err
	}
	binary.BigEndian.PutUint32(out, uint32(len(out)-4))
	return out, fds, nil
}

// appendPayload appends the type-specific part of f.
func appendPayload(out []byte, f *frame) ([]byte, []protocol.FileDescriptor, error) {
	switch f.typ {
	case typeCall:
		return appendBundle(appendString(out, f.method), f.bundle, false)
	case typeResult:
		return appendBundle(out, f.bundle, true)
	case typeLaunched:
		return appendBundle(out, f.bundle, false)
	case typeLaunch:
		return appendString(out, f.resolution), nil, nil
	case typeGoAway:
		return appendString(out, f.reason), nil, nil
	}
	return out, nil, nil
}

func appendString(out []byte, s string) []byte {
	out = binary.AppendUvarint(out, uint64(len(s)))
	return append(out, s...)
}

// appendBundle appends the bundle section: the descriptor keys, then the
// in-band values in the binary Bundle format of package protocol.
func appendBundle(out []byte, b protocol.Bundle, allowFDs bool) ([]byte, []protocol.FileDescriptor, error) {
	inBand, keys, fds, err := splitFDs(b)
	if err == nil && (len(keys) > 0 && !allowFDs || len(keys) > MaxFDsPerFrame) {
		err = fmt.Errorf("unixsock: %d file descriptors cannot travel in this frame", len(keys))
	}
	if err != nil {
		return nil, nil, err
	}
	out = append(out, byte(len(keys)))
	for _, k := range keys {
		out = appendString(out, k)
	}
	out, err = protocol.AppendBundle(out, inBand)
	return out, fds, err
}

// splitFDs separates the descriptor values of b, sorted by key, from the
// in-band values. A Bundle without descriptors is returned as it is.
func splitFDs(b protocol.Bundle) (protocol.Bundle, []string, []protocol.FileDescriptor, error) {
	if !hasFDs(b) {
		return b, nil, nil, nil
	}
	inBand := make(protocol.Bundle, len(b))
	var keys []string
	for k, v := range b {
		if _, isFD := v.(protocol.FileDescriptor); isFD {
			keys = append(keys, k)
		} else {
			inBand[k] = v
		}
	}
	sort.Strings(keys)
	fds := make([]protocol.FileDescriptor, len(keys))
	for i, k := range keys {
		if fds[i] = b[k].(protocol.FileDescriptor); fds[i].File == nil {
			return nil, nil, nil, fmt.Errorf("unixsock: key %q: nil file descriptor", k)
		}
	}
	return inBand, keys, fds, nil
}

// hasFDs reports whether b holds a FileDescriptor value.
func hasFDs(b protocol.Bundle) bool {
	for _, v := range b {
		if _, isFD := v.(protocol.FileDescriptor); isFD {
			return true
		}
	}
	return false
}

// decodeFrame decodes the bytes of one frame after its length prefix. The
// descriptors of a Result frame are not part of it: the caller pairs
// fdKeys with the descriptors it received.
func decodeFrame(body []byte) (*frame, error) {
	if len(body) < headerBytes-4 {
		return nil, frameErr("%d bytes is shorter than a header", len(body))
	}
	f := &frame{typ: body[0], id: binary.BigEndian.Uint32(body[1:])}
	r := &reader{buf: body[5:]}
	if err := f.decodePayload(r); err != nil {
		return nil, err
	}
	if len(r.buf) != 0 {
		return nil, frameErr("%d trailing bytes", len(r.buf))
	}
	return f, nil
}

// decodePayload decodes the type-specific part of f.
func (f *frame) decodePayload(r *reader) error {
	if f.id == 0 && f.typ != typeGoAway {
		return frameErr("request number 0")
	}
	var err error
	switch f.typ {
	case typeCall:
		if f.method, err = r.str(1, MaxMethodBytes); err != nil {
			return err
		}
		f.bundle, _, err = r.bundle(false)
	case typeResult:
		f.bundle, f.fdKeys, err = r.bundle(true)
	case typeLaunched:
		f.bundle, _, err = r.bundle(false)
	case typeLaunch:
		f.resolution, err = r.str(1, MaxResolutionIDBytes)
	case typeCancel:
	case typeGoAway:
		f.reason, err = r.str(0, MaxReasonBytes)
	default:
		return frameErr("unknown type %d", f.typ)
	}
	return err
}

// reader consumes a frame payload.
type reader struct{ buf []byte }

// str reads a uvarint-prefixed string of min to max bytes and consumes it.
func (r *reader) str(min, max int) (string, error) {
	n, k := binary.Uvarint(r.buf)
	if k <= 0 {
		return "", frameErr("bad length")
	}
	if n < uint64(min) || n > uint64(max) || n > uint64(len(r.buf)-k) {
		return "", frameErr("length %d outside %d..%d or past the frame", n, min, max)
	}
	s := string(r.buf[k : k+int(n)])
	r.buf = r.buf[k+int(n):]
	return s, nil
}

// bundle reads a bundle section, which runs to the end of the frame.
func (r *reader) bundle(allowFDs bool) (protocol.Bundle, []string, error) {
	keys, err := r.fdKeys(allowFDs)
	if err != nil {
		return nil, nil, err
	}
	b, err := protocol.UnmarshalBundle(r.buf)
	if err != nil {
		return nil, nil, frameErr("bundle: %v", err)
	}
	r.buf = nil
	if len(b)+len(keys) > protocol.MaxBundleEntries {
		return nil, nil, frameErr("bundle holds more than %d keys", protocol.MaxBundleEntries)
	}
	for _, k := range keys {
		if b.Has(k) {
			return nil, nil, frameErr("key %q is both in band and a descriptor", k)
		}
	}
	return b, keys, nil
}

// fdKeys reads the descriptor count and keys of a bundle section.
func (r *reader) fdKeys(allowed bool) ([]string, error) {
	if len(r.buf) == 0 {
		return nil, frameErr("missing descriptor count")
	}
	n := int(r.buf[0])
	r.buf = r.buf[1:]
	if n > MaxFDsPerFrame || n > 0 && !allowed {
		return nil, frameErr("%d descriptors not allowed here", n)
	}
	if n == 0 {
		return nil, nil
	}
	keys := make([]string, n)
	for i := range keys {
		k, err := r.str(1, protocol.MaxKeyBytes)
		if err != nil {
			return nil, err
		}
		if i > 0 && k <= keys[i-1] {
			return nil, frameErr("descriptor keys not in strictly increasing order")
		}
		keys[i] = k
	}
	return keys, nil
}

// setID writes request number id into the encoded frame buf.
func setID(buf []byte, id uint32) {
	binary.BigEndian.PutUint32(buf[5:], id)
}
