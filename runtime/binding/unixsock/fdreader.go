package unixsock

import (
	"net"
	"os"
	"syscall"
)

// fdReader reads a stream with recvmsg and keeps the descriptors that
// arrive with it in order. A server passes the descriptors of a frame with
// the frame's first bytes, so they are queued no later than that frame is
// read, and they are queued in frame order.
type fdReader struct {
	c     *net.UnixConn
	oob   []byte
	queue []int
}

func newFDReader(c *net.UnixConn) *fdReader {
	return &fdReader{c: c, oob: make([]byte, syscall.CmsgSpace(4*MaxFDsPerFrame))}
}

// Read implements io.Reader.
func (r *fdReader) Read(p []byte) (int, error) {
	n, oobn, flags, _, err := r.c.ReadMsgUnix(p, r.oob)
	n = max(n, 0) // an error may come with -1
	if oobn > 0 {
		if qerr := r.enqueue(r.oob[:oobn]); qerr != nil {
			return n, qerr
		}
	}
	if flags&syscall.MSG_CTRUNC != 0 {
		return n, frameErr("too many descriptors at once")
	}
	return n, err
}

// enqueue keeps the descriptors of the control messages in oob.
func (r *fdReader) enqueue(oob []byte) error {
	msgs, err := syscall.ParseSocketControlMessage(oob)
	if err != nil {
		return frameErr("control message: %v", err)
	}
	for _, m := range msgs {
		fds, err := syscall.ParseUnixRights(&m)
		if err != nil {
			continue // not SCM_RIGHTS
		}
		r.queue = append(r.queue, fds...)
	}
	if len(r.queue) > 2*MaxFDsPerFrame {
		return frameErr("%d descriptors queued", len(r.queue))
	}
	return nil
}

// take removes the n oldest descriptors from the queue as files. Only the
// next frame's descriptors may remain queued after a frame was read.
func (r *fdReader) take(n int) ([]*os.File, error) {
	if n > len(r.queue) {
		return nil, frameErr("frame declares %d descriptors, %d arrived", n, len(r.queue))
	}
	if len(r.queue)-n > MaxFDsPerFrame {
		return nil, frameErr("unclaimed descriptors")
	}
	files := make([]*os.File, n)
	for i, fd := range r.queue[:n] {
		files[i] = os.NewFile(uintptr(fd), "cetp-fd")
	}
	r.queue = r.queue[n:]
	return files, nil
}

// closeAll closes every descriptor still queued.
func (r *fdReader) closeAll() {
	for _, fd := range r.queue {
		syscall.Close(fd)
	}
	r.queue = nil
}
