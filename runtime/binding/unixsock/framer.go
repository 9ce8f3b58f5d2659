package unixsock

import (
	"encoding/binary"
	"io"
)

// Buffer sizes of a framer.
const (
	// framerStart is the buffer a framer starts with: every frame of an
	// ordinary call fits, and one read may bring several.
	framerStart = 4 << 10
	// framerUpfront is the most a declared length reserves before its
	// bytes arrive; past it the buffer grows by doubling as they do, so a
	// length prefix alone cannot make a peer allocate HardMaxFrame.
	framerUpfront = 1 << 20
	// framerKeep is the largest buffer a framer keeps once it is empty.
	framerKeep = 64 << 10
)

// framer reads length-prefixed frames from a stream into one buffer that
// it reuses: a frame is decoded in place (decoding copies every string),
// and the bytes of the next frames that arrived with it stay for the next
// call. Its state survives an error of the reader, such as a read
// deadline, so reading may resume where it stopped.
type framer struct {
	r          io.Reader
	max        int
	buf        []byte
	start, end int // the unread bytes are buf[start:end]
}

func newFramer(r io.Reader, max int) *framer {
	return &framer{r: r, max: max, buf: make([]byte, framerStart)}
}

// next returns the next frame of at most max bytes after its length
// prefix, reading the stream as needed.
func (fr *framer) next() (*frame, error) {
	for {
		body, need, err := fr.cut()
		if err != nil {
			return nil, err
		}
		if body != nil {
			return decodeFrame(body)
		}
		if err := fr.fill(need); err != nil {
			return nil, err
		}
	}
}

// cut returns the body of the next frame when all of it is buffered and
// consumes it; otherwise it returns how many bytes the frame needs in all,
// length prefix included (4 while the prefix is incomplete).
func (fr *framer) cut() ([]byte, int, error) {
	avail := fr.end - fr.start
	if avail < 4 {
		return nil, 4, nil
	}
	n := binary.BigEndian.Uint32(fr.buf[fr.start:])
	if n < headerBytes-4 || uint64(n) > uint64(fr.max) {
		return nil, 0, frameErr("length %d outside %d..%d", n, headerBytes-4, fr.max)
	}
	total := 4 + int(n)
	if avail < total {
		return nil, total, nil
	}
	body := fr.buf[fr.start+4 : fr.start+total]
	fr.start += total
	if fr.start == fr.end {
		fr.start, fr.end = 0, 0
		if len(fr.buf) > framerKeep { // body keeps the old buffer alive until decoded
			fr.buf = make([]byte, framerStart)
		}
	}
	return body, 0, nil
}

// fill reads at least one more byte toward a frame of need bytes in all.
// It moves the unread bytes to the front and grows the buffer when the
// frame cannot fit: at once to need when need is at most framerUpfront,
// else to double its size each time it is full.
func (fr *framer) fill(need int) error {
	if fr.start > 0 && len(fr.buf)-fr.start < need {
		fr.end = copy(fr.buf, fr.buf[fr.start:fr.end])
		fr.start = 0
	}
	if len(fr.buf)-fr.start < need && (fr.end == len(fr.buf) || need <= framerUpfront) {
		grown := make([]byte, fr.grownSize(need))
		fr.end = copy(grown, fr.buf[fr.start:fr.end])
		fr.start, fr.buf = 0, grown
	}
	n, err := fr.r.Read(fr.buf[fr.end:])
	fr.end += n
	if n > 0 {
		return nil
	}
	if err == nil {
		err = io.ErrNoProgress
	}
	if err == io.EOF && fr.end > fr.start {
		err = io.ErrUnexpectedEOF
	}
	return err
}

// grownSize is the size of the buffer that replaces a full one on the way
// to a frame of need bytes.
func (fr *framer) grownSize(need int) int {
	if need <= framerUpfront {
		return max(need, len(fr.buf))
	}
	return min(need, max(2*len(fr.buf), framerUpfront))
}
