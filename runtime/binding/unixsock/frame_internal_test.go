package unixsock

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"io"
	"os"
	"reflect"
	"testing"

	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// encodeFrame returns the bytes of f in a fresh buffer, as the tests
// write frames by hand.
func encodeFrame(f *frame) ([]byte, []protocol.FileDescriptor, error) {
	return appendFrame(nil, f)
}

// sampleFrames has one frame of every type.
func sampleFrames() []*frame {
	b := protocol.Bundle{
		protocol.KeyProtocolVersion: protocol.Int(2), protocol.KeyDeadlineAtMs: protocol.Long(1700000000000),
		protocol.KeyRequestID: protocol.String("3f2b0c1e-8a4d-4b6e-9c1f-2a3b4c5d6e7f"), protocol.KeyRetryable: protocol.Boolean(true),
		protocol.KeyConsumerVersions: protocol.IntArray{2, -1}, protocol.KeyResolution: &protocol.Resolution{ID: "r1"},
	}
	return []*frame{
		{typ: typeCall, id: 1, method: protocol.MethodListTools, bundle: b},
		{typ: typeResult, id: 2, bundle: b, fdKeys: []string{protocol.KeyResultFD}},
		{typ: typeLaunch, id: 3, resolution: "r1"},
		{typ: typeLaunched, id: 3, bundle: protocol.Bundle{protocol.KeyStatus: protocol.String("success")}},
		{typ: typeCancel, id: 4},
		{typ: typeGoAway, reason: "bye"},
	}
}

// encodeWithFDs encodes f, giving its fd keys a placeholder file (encoding
// never touches it).
func encodeWithFDs(t testing.TB, f *frame) []byte {
	b := protocol.Bundle{}
	for k, v := range f.bundle {
		b[k] = v
	}
	for _, k := range f.fdKeys {
		b[k] = protocol.FileDescriptor{File: os.Stdin}
	}
	g := *f
	g.bundle = b
	buf, fds, err := encodeFrame(&g)
	if err != nil || len(fds) != len(f.fdKeys) {
		t.Fatalf("encode %+v: %v", f, err)
	}
	return buf
}

// TestFrameRoundTrip proves every frame type decodes to what was encoded.
func TestFrameRoundTrip(t *testing.T) {
	for _, f := range sampleFrames() {
		got, err := readFrame(bytes.NewReader(encodeWithFDs(t, f)), HardMaxFrame)
		if err != nil {
			t.Fatalf("type %d: %v", f.typ, err)
		}
		if f.bundle == nil && (f.typ == typeCall || f.typ == typeResult || f.typ == typeLaunched) {
			f.bundle = protocol.Bundle{}
		}
		if !reflect.DeepEqual(got, f) {
			t.Fatalf("type %d: got %+v want %+v", f.typ, got, f)
		}
	}
}

// FuzzReadFrame proves that no input makes the frame decoder panic or
// exceed its bounds, and that whatever it accepts re-encodes to a frame
// that decodes to the same value.
func FuzzReadFrame(f *testing.F) {
	for _, fr := range sampleFrames() {
		f.Add(encodeWithFDs(f, fr))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fr, err := readFrame(bytes.NewReader(data), 1<<16)
		if err != nil {
			return
		}
		checkBounds(t, fr)
		again, err := readFrame(bytes.NewReader(encodeWithFDs(t, fr)), HardMaxFrame)
		if err != nil || !reflect.DeepEqual(again, fr) {
			t.Fatalf("re-encoded frame: %v\n%+v\n%+v", err, again, fr)
		}
	})
}

// checkBounds fails when a decoded frame is past a documented bound.
func checkBounds(t *testing.T, fr *frame) {
	if len(fr.method) > MaxMethodBytes || len(fr.resolution) > MaxResolutionIDBytes ||
		len(fr.reason) > MaxReasonBytes || len(fr.fdKeys) > MaxFDsPerFrame ||
		len(fr.bundle)+len(fr.fdKeys) > protocol.MaxBundleEntries {
		t.Fatalf("frame past its bounds: %+v", fr)
	}
}

// rawFrame builds a frame from its type, request number and payload.
func rawFrame(typ byte, id uint32, payload ...byte) []byte {
	out := binary.BigEndian.AppendUint32(nil, uint32(5+len(payload)))
	out = append(out, typ)
	out = binary.BigEndian.AppendUint32(out, id)
	return append(out, payload...)
}

// TestDecodeRejects proves the decoder refuses each malformed frame.
func TestDecodeRejects(t *testing.T) {
	for name, data := range badFrames() {
		if _, err := readFrame(bytes.NewReader(data), 1<<20); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// badFrames are malformed frames, by what is wrong with them.
func badFrames() map[string][]byte {
	many := binary.AppendUvarint(nil, protocol.MaxBundleEntries+1)
	return map[string][]byte{
		"length below a header":    {0, 0, 0, 4, 1, 0, 0, 0},
		"length past the maximum":  {0x7f, 0xff, 0xff, 0xff, 1},
		"truncated":                rawFrame(typeCall, 1)[:7],
		"unknown type":             rawFrame(9, 1, 0),
		"request number 0":         rawFrame(typeCall, 0, 4, 'n', 'a', 'm', 'e', 0, 0),
		"empty method":             rawFrame(typeCall, 1, 0, 0, 0),
		"method too long":          rawFrame(typeCall, 1, append([]byte{65}, bytes.Repeat([]byte{'a'}, 65)...)...),
		"descriptors in a call":    rawFrame(typeCall, 1, 1, 'm', 1, 1, 'k', 0),
		"five descriptors":         rawFrame(typeResult, 1, 5, 1, 'a', 1, 'b', 1, 'c', 1, 'd', 1, 'e', 0),
		"descriptor keys unsorted": rawFrame(typeResult, 1, 2, 1, 'b', 1, 'a', 0),
		"descriptor key in band":   rawFrame(typeResult, 1, 1, 1, 'k', 1, 1, 'k', 1, 0, 0, 0, 1),
		"too many entries":         rawFrame(typeResult, 1, append([]byte{0}, many...)...),
		"bundle kind fd in band":   rawFrame(typeResult, 1, 0, 1, 1, 'k', byte(protocol.KindFileDescriptor)),
		"trailing bytes in launch": rawFrame(typeLaunch, 1, 1, 'r', 0),
		"missing bundle section":   rawFrame(typeResult, 1),
	}
}

// The worked example of docs/binding-unix.md §8.
const (
	docRequestHex  = "000000430100000001096e65676f7469617465000215636f6e73756d65725f6361706162696c697469657303025b5d11636f6e73756d65725f76657273696f6e73040100000002"
	docResponseHex = "000000780200000001" + "00050a6572726f725f636f6465031355" + "4e535550504f525445445f56455253494f4e0d6572726f725f6d657373616765" +
		"03116e6f20636f6d6d6f6e2076657273696f6e1070726f746f636f6c5f76657273696f6e0100000002" + "09726574727961626c6505000673746174757303056572726f72"
)

// TestDocExample proves that the worked example of the documentation is
// what the encoder writes.
func TestDocExample(t *testing.T) {
	req, _, _ := encodeFrame(&frame{typ: typeCall, id: 1, method: "negotiate", bundle: protocol.Bundle{
		protocol.KeyConsumerVersions: protocol.IntArray{2}, protocol.KeyConsumerCapabilities: protocol.String("[]")}})
	resp, _, _ := encodeFrame(&frame{typ: typeResult, id: 1, bundle: protocol.ErrorBundle(protocol.Echo{Version: 2},
		protocol.NewError(protocol.CodeUnsupportedVersion, "no common version"))})
	launch, _, _ := encodeFrame(&frame{typ: typeLaunch, id: 2, resolution: "r1"})
	for _, c := range []struct{ got, want string }{
		{hex.EncodeToString(req), docRequestHex},
		{hex.EncodeToString(resp), docResponseHex},
		{hex.EncodeToString(launch), "000000080300000002027231"},
	} {
		if c.got != c.want {
			t.Errorf("encoded %s\ndocument %s", c.got, c.want)
		}
	}
}

// readFrame reads exactly one frame of at most max bytes after the length
// prefix from r, through a framer, so that a test may go on reading r
// after it.
func readFrame(r io.Reader, max int) (*frame, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(hdr[:])
	return newFramer(io.MultiReader(bytes.NewReader(hdr[:]), io.LimitReader(r, int64(n))), max).next()
}
