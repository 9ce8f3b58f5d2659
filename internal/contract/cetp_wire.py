"""The wire of docs/binding-unix.md: frames, bundle sections and the binary
Bundle format, and a connection that reads frames with recvmsg and queues
SCM_RIGHTS descriptors. Written from the docs only (the contract), in the
Python standard library, so that it checks what the docs promise and
nothing the Go code happens to do."""

import array
import os
import socket
import struct

# Frame types, binding-unix.md §2.
CALL, RESULT, LAUNCH, LAUNCHED, CANCEL, GOAWAY = 1, 2, 3, 4, 5, 6

# Bundle kinds, binding-unix.md §3.1.
K_INT, K_LONG, K_STRING, K_INTS, K_BOOL, K_RESOLUTION, K_FD = 1, 2, 3, 4, 5, 6, 7

MAX_DESCRIPTORS = 4
MAX_RESPONSE = 16 * 1024 * 1024 + 64 * 1024


class ProtocolError(Exception):
    """A frame from the server that breaks the binding's rules."""


class Closed(Exception):
    """The connection ended (GoAway or end of stream)."""

    def __init__(self, msg, goaway=None):
        super().__init__(msg)
        self.goaway = goaway


class Int(int):
    """A Bundle Int (kind 1)."""


class Long(int):
    """A Bundle Long (kind 2)."""


class Ints(list):
    """A Bundle int[] (kind 4)."""


class Resolution(str):
    """A Bundle PendingIntent (kind 6): the resolution ID."""


class Fd(int):
    """A passed descriptor (kind 7, out of band)."""


def uvarint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def string(s):
    b = s.encode("utf-8") if isinstance(s, str) else bytes(s)
    return uvarint(len(b)) + b


def encode_value(v):
    """One value as kind byte and value bytes."""
    if isinstance(v, bool):
        return bytes([K_BOOL, 1 if v else 0])
    if isinstance(v, Long):
        return bytes([K_LONG]) + struct.pack(">q", v)
    if isinstance(v, Int):
        return bytes([K_INT]) + struct.pack(">i", v)
    if isinstance(v, Ints):
        return bytes([K_INTS]) + uvarint(len(v)) + b"".join(struct.pack(">i", x) for x in v)
    if isinstance(v, Resolution):
        return bytes([K_RESOLUTION]) + string(v)
    if isinstance(v, str):
        return bytes([K_STRING]) + string(v)
    raise TypeError("no Bundle type for %r" % (v,))


def encode_bundle(bundle):
    """The binary Bundle format, entries in key byte order."""
    keys = sorted(bundle, key=lambda k: k.encode("utf-8"))
    out = bytearray(uvarint(len(keys)))
    for k in keys:
        out += string(k) + encode_value(bundle[k])
    return bytes(out)


def encode_section(bundle):
    """A bundle section of a Call: no descriptor keys, then the values."""
    return b"\x00" + encode_bundle(bundle)


def frame(ftype, request, payload):
    return struct.pack(">IBI", 5 + len(payload), ftype, request) + payload


def call_frame(request, method, bundle):
    return frame(CALL, request, string(method) + encode_section(bundle))


def launch_frame(request, resolution_id):
    return frame(LAUNCH, request, string(resolution_id))


class Reader:
    """Reads the pieces of one payload, refusing anything past its end."""

    def __init__(self, data):
        self.data, self.pos = data, 0

    def take(self, n):
        if n < 0 or self.pos + n > len(self.data):
            raise ProtocolError("a value runs past the frame")
        b = self.data[self.pos:self.pos + n]
        self.pos += n
        return b

    def uvarint(self):
        n, shift = 0, 0
        while True:
            b = self.take(1)[0]
            n |= (b & 0x7F) << shift
            if b < 0x80:
                return n
            shift += 7
            if shift > 63:
                raise ProtocolError("uvarint too long")

    def string(self, lo, hi):
        n = self.uvarint()
        if n < lo or n > hi:
            raise ProtocolError("string of %d bytes outside %d..%d" % (n, lo, hi))
        return self.take(n).decode("utf-8")

    def done(self):
        return self.pos == len(self.data)


def decode_value(r, kind):
    if kind == K_INT:
        return Int(struct.unpack(">i", r.take(4))[0])
    if kind == K_LONG:
        return Long(struct.unpack(">q", r.take(8))[0])
    if kind == K_STRING:
        return r.string(0, 1 << 30)
    if kind == K_INTS:
        n = r.uvarint()
        if n > 1024:
            raise ProtocolError("int[] of %d elements" % n)
        return Ints(struct.unpack(">%di" % n, r.take(4 * n)))
    if kind == K_BOOL:
        b = r.take(1)[0]
        if b > 1:
            raise ProtocolError("Boolean byte %d" % b)
        return b == 1
    if kind == K_RESOLUTION:
        return Resolution(r.string(0, 256))
    if kind == K_FD:
        raise ProtocolError("a descriptor in band")
    raise ProtocolError("unknown kind %d" % kind)


def decode_section(payload, fds_available):
    """A bundle section: returns (bundle, number of descriptor keys). The
    descriptor keys take their values, in order, from fds_available (a list
    the caller pops from)."""
    r = Reader(payload)
    n = r.take(1)[0]
    if n > MAX_DESCRIPTORS:
        raise ProtocolError("%d descriptor keys" % n)
    fd_keys = [r.string(1, 256) for _ in range(n)]
    for a, b in zip(fd_keys, fd_keys[1:]):
        if a.encode() >= b.encode():
            raise ProtocolError("descriptor keys not strictly increasing")
    count = r.uvarint()
    if count > 256:
        raise ProtocolError("%d entries" % count)
    bundle = {}
    for _ in range(count):
        key = r.string(0, 256)
        kind = r.take(1)[0]
        if key in bundle:
            raise ProtocolError("duplicate key %r" % key)
        bundle[key] = decode_value(r, kind)
    if not r.done():
        raise ProtocolError("trailing bytes after the Bundle")
    if len(bundle) + n > 256:
        raise ProtocolError("more than 256 keys")
    for k in fd_keys:
        if k in bundle:
            raise ProtocolError("key %r both in band and a descriptor" % k)
    if len(fds_available) < n:
        raise ProtocolError("frame lists %d descriptors, %d queued" % (n, len(fds_available)))
    for k in fd_keys:
        bundle[k] = Fd(fds_available.pop(0))
    return bundle, n


class Conn:
    """One connection to a Provider's socket. Single reader, one frame at a
    time; request numbers count up from 1."""

    def __init__(self, path, max_response=MAX_RESPONSE):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(10)
        self.sock.connect(path)
        self.buf = bytearray()
        self.fds = []  # FIFO of received descriptors
        self.next_request = 1
        self.max_response = max_response
        self.closed = False

    def request_number(self):
        n = self.next_request
        self.next_request += 1
        return n

    def send(self, data):
        self.sock.sendall(data)

    def _recv(self):
        space = socket.CMSG_SPACE(MAX_DESCRIPTORS * array.array("i").itemsize)
        data, anc, flags, _ = self.sock.recvmsg(65536, space, getattr(socket, "MSG_CMSG_CLOEXEC", 0))
        for level, typ, cdata in anc:
            if level == socket.SOL_SOCKET and typ == socket.SCM_RIGHTS:
                fds = array.array("i")
                fds.frombytes(cdata[:len(cdata) - (len(cdata) % fds.itemsize)])
                self.fds.extend(fds)
        if flags & socket.MSG_CTRUNC:
            self.close()
            raise ProtocolError("MSG_CTRUNC: the kernel dropped descriptors")
        if len(self.fds) > 2 * MAX_DESCRIPTORS:
            self.close()
            raise ProtocolError("more than 8 descriptors queued")
        return data

    def read_frame(self):
        """The next frame as (type, request, payload); raises Closed at end
        of stream."""
        while True:
            if len(self.buf) >= 4:
                length = struct.unpack(">I", self.buf[:4])[0]
                if length < 5 or length > self.max_response:
                    self.close()
                    raise ProtocolError("frame length %d" % length)
                if len(self.buf) >= 4 + length:
                    body = bytes(self.buf[4:4 + length])
                    del self.buf[:4 + length]
                    ftype, request = struct.unpack(">BI", body[:5])
                    return ftype, request, body[5:]
            data = self._recv()
            if not data:
                self.close()
                raise Closed("end of stream")
            self.buf += data

    def read_answer(self):
        """The next Result or Launched as (type, request, bundle). A GoAway
        raises Closed with its reason."""
        ftype, request, payload = self.read_frame()
        if ftype == GOAWAY:
            if request != 0:
                raise ProtocolError("GoAway with request number %d" % request)
            reason = Reader(payload).string(0, 1024)
            self.close()
            raise Closed("GoAway: " + reason, goaway=reason)
        if ftype not in (RESULT, LAUNCHED):
            self.close()
            raise ProtocolError("frame type %d from the server" % ftype)
        bundle, n = decode_section(payload, self.fds)
        if ftype == LAUNCHED and n:
            raise ProtocolError("descriptors in a Launched frame")
        if len(self.fds) > MAX_DESCRIPTORS:
            self.close()
            raise ProtocolError("more than 4 descriptors left queued")
        return ftype, request, bundle

    def call(self, method, bundle):
        """Sends one Call and waits for its Result (the only request in
        flight)."""
        n = self.request_number()
        self.send(call_frame(n, method, bundle))
        ftype, request, out = self.read_answer()
        if ftype != RESULT or request != n:
            raise ProtocolError("answer type %d number %d to Call %d" % (ftype, request, n))
        return out

    def launch(self, resolution_id):
        n = self.request_number()
        self.send(launch_frame(n, resolution_id))
        ftype, request, out = self.read_answer()
        if ftype != LAUNCHED or request != n:
            raise ProtocolError("answer type %d number %d to Launch %d" % (ftype, request, n))
        return out

    def close(self):
        if not self.closed:
            self.closed = True
            for fd in self.fds:
                os.close(fd)
            self.fds = []
            self.sock.close()
