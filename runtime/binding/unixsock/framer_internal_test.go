package unixsock

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"testing"
	"testing/iotest"

	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// stream returns the bytes of n Call frames whose bundles hold data of
// growing size, and the frames.
func stream(t *testing.T, n int) ([]byte, []*frame) {
	var all []byte
	var frames []*frame
	for i := range n {
		f := &frame{typ: typeCall, id: uint32(i + 1), method: "m",
			bundle: protocol.Bundle{protocol.KeyData: protocol.String(bytes.Repeat([]byte{'x'}, i*i*97))}}
		buf, _, err := encodeFrame(f)
		if err != nil {
			t.Fatal(err)
		}
		all, frames = append(all, buf...), append(frames, f)
	}
	return all, frames
}

// readAll reads frames from fr until io.EOF and checks them against want.
func readAll(t *testing.T, fr *framer, want []*frame) {
	t.Helper()
	for i, w := range want {
		f, err := fr.next()
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if f.id != w.id || f.method != w.method || !f.bundle.Has(protocol.KeyData) {
			t.Fatalf("frame %d: got %+v", i, f)
		}
		got, _, _ := f.bundle.String(protocol.KeyData)
		if wd, _, _ := w.bundle.String(protocol.KeyData); got != wd {
			t.Fatalf("frame %d: %d bytes of data, want %d", i, len(got), len(wd))
		}
	}
	if _, err := fr.next(); err != io.EOF {
		t.Fatalf("after the last frame: %v", err)
	}
}

// TestFramerSplitsAndJoins proves that a framer returns the same frames
// whether they arrive many per read, one byte per read, or in reads of
// odd sizes, and that the frames it returned keep their content while it
// reuses its buffer.
func TestFramerSplitsAndJoins(t *testing.T) {
	data, want := stream(t, 40) // up to 150 KB per frame: past the start buffer and framerKeep
	readers := map[string]io.Reader{
		"whole":   bytes.NewReader(data),
		"bytes":   iotest.OneByteReader(bytes.NewReader(data)),
		"halves":  iotest.HalfReader(bytes.NewReader(data)),
		"dataerr": iotest.DataErrReader(bytes.NewReader(data)),
	}
	for name, r := range readers {
		t.Run(name, func(t *testing.T) { readAll(t, newFramer(r, HardMaxFrame), want) })
	}
}

// TestFramerResumes proves that a framer goes on where it stopped after
// its reader failed mid-frame, as a read deadline makes it fail.
func TestFramerResumes(t *testing.T) {
	data, want := stream(t, 5)
	r := &failingReader{data: data, every: 7}
	fr := newFramer(r, HardMaxFrame)
	for i, w := range want {
		var f *frame
		var err error
		for f, err = fr.next(); errors.Is(err, os.ErrDeadlineExceeded); f, err = fr.next() {
		}
		if err != nil || f.id != w.id {
			t.Fatalf("frame %d: %v %v", i, f, err)
		}
	}
}

// failingReader returns its data in reads of up to every bytes, failing
// with os.ErrDeadlineExceeded before each.
type failingReader struct {
	data   []byte
	every  int
	failed bool
}

// Read implements io.Reader.
func (r *failingReader) Read(p []byte) (int, error) {
	if r.failed = !r.failed; r.failed {
		return 0, os.ErrDeadlineExceeded
	}
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), r.every)], r.data)
	r.data = r.data[n:]
	return n, nil
}

// TestFramerBounds proves that a declared length past the bound is
// refused before its bytes are read, that a huge declared length reserves
// at most framerUpfront bytes until its bytes arrive, and that a stream
// cut inside a frame is io.ErrUnexpectedEOF.
func TestFramerBounds(t *testing.T) {
	if _, err := newFramer(bytes.NewReader([]byte{0, 1, 0, 0, 1}), 1<<10).next(); !errors.Is(err, errFrame) {
		t.Fatalf("oversized: %v", err)
	}
	fr := newFramer(bytes.NewReader([]byte{0x03, 0xff, 0xff, 0xff, typeCall}), HardMaxFrame)
	if _, err := fr.next(); err != io.ErrUnexpectedEOF {
		t.Fatalf("cut frame: %v", err)
	}
	if len(fr.buf) > framerUpfront {
		t.Fatalf("a 64 MiB length prefix reserved %d bytes", len(fr.buf))
	}
}

// FuzzFramerStream proves that a framer cuts any byte stream into the
// same frames, and stops at the same error, whatever sizes its reads
// return: the reference cuts the whole stream at once.
func FuzzFramerStream(f *testing.F) {
	data, _ := stream(&testing.T{}, 4)
	f.Add(data, uint8(1))
	f.Add(data, uint8(7))
	f.Add(append(data, 0, 0, 0), uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, step uint8) {
		want, wantErr := cutAll(data)
		r := &steppedReader{data: data, step: int(step%64) + 1}
		fr := newFramer(r, 1<<16)
		for i := 0; ; i++ {
			got, err := fr.next()
			if err != nil {
				if i != len(want) || (wantErr == nil) != errors.Is(err, io.EOF) {
					t.Fatalf("after %d of %d frames: %v, want %v", i, len(want), err, wantErr)
				}
				return
			}
			if i >= len(want) || got.id != want[i].id || got.typ != want[i].typ {
				t.Fatalf("frame %d: got %+v", i, got)
			}
		}
	})
}

// cutAll cuts data into frames of at most 64 KiB in one pass and returns
// them with the error that stopped it (nil at a clean end).
func cutAll(data []byte) ([]*frame, error) {
	var out []*frame
	for len(data) > 0 {
		if len(data) < 4 {
			return out, io.ErrUnexpectedEOF
		}
		n := int(binary.BigEndian.Uint32(data))
		if n < headerBytes-4 || n > 1<<16 {
			return out, errFrame
		}
		if len(data) < 4+n {
			return out, io.ErrUnexpectedEOF
		}
		f, err := decodeFrame(data[4 : 4+n])
		if err != nil {
			return out, err
		}
		out, data = append(out, f), data[4+n:]
	}
	return out, nil
}

// steppedReader returns its data in reads of step bytes.
type steppedReader struct {
	data []byte
	step int
}

// Read implements io.Reader.
func (r *steppedReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), r.step)], r.data)
	r.data = r.data[n:]
	return n, nil
}
