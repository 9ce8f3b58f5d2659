package mcpbridge_test

import (
	"encoding/binary"
	"io"
	"net"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
)

// Frame types of the Unix binding (docs/binding-unix.md §2).
const (
	frameCall   = 1
	frameResult = 2
)

// cutProxy forwards the connections made to its socket to a Provider's
// socket frame by frame and, when armed, drops the Result of the first
// execute_tool it sees and closes that connection: the Provider ran the
// call, its answer never reached the Consumer, as with a binding that
// dies at the worst moment. It passes no descriptors, so it carries
// inline results only.
type cutProxy struct {
	upstream string
	armed    atomic.Bool
	cuts     atomic.Int64
	conns    atomic.Int64
}

// listen starts the proxy on a fresh socket and returns its path.
func (p *cutProxy) listen(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "proxy.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			u, err := net.Dial("unix", p.upstream)
			if err != nil {
				c.Close()
				continue
			}
			p.conns.Add(1)
			go p.carry(c, u)
		}
	}()
	return path
}

// carry forwards one connection's frames both ways until either side
// closes or the proxy cuts it.
func (p *cutProxy) carry(c, u net.Conn) {
	var (
		mu    sync.Mutex
		execs = map[uint32]bool{}
	)
	closeBoth := func() { c.Close(); u.Close() }
	go func() {
		defer closeBoth()
		for {
			f, err := readFrame(c)
			if err != nil {
				return
			}
			if f[4] == frameCall && callMethod(f) == "execute_tool" {
				mu.Lock()
				execs[binary.BigEndian.Uint32(f[5:9])] = true
				mu.Unlock()
			}
			if _, err := u.Write(f); err != nil {
				return
			}
		}
	}()
	defer closeBoth()
	for {
		f, err := readFrame(u)
		if err != nil {
			return
		}
		mu.Lock()
		exec := f[4] == frameResult && execs[binary.BigEndian.Uint32(f[5:9])]
		mu.Unlock()
		if exec && p.armed.CompareAndSwap(true, false) {
			p.cuts.Add(1)
			return
		}
		if _, err := c.Write(f); err != nil {
			return
		}
	}
}

// readFrame reads one whole frame, length prefix included.
func readFrame(r io.Reader) ([]byte, error) {
	var head [4]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(head[:])
	if n < 5 || n > 64<<20 {
		return nil, io.ErrUnexpectedEOF
	}
	f := make([]byte, 4+n)
	copy(f, head[:])
	_, err := io.ReadFull(r, f[4:])
	return f, err
}

// callMethod is the method name of a Call frame.
func callMethod(f []byte) string {
	n, k := binary.Uvarint(f[9:])
	if k <= 0 || 9+k+int(n) > len(f) {
		return ""
	}
	return string(f[9+k : 9+k+int(n)])
}
