"""An independent CETP v2 Consumer, written only from docs/binding-unix.md,
docs/protocol.md and docs/consumer.md, run against the price-alert Provider
(examples/alertsd, tools of specs/alerts). Each check asserts what those
docs promise, nothing more. Usage: ALERTSD_PID=PID consumer_check.py
SOCKET [SOCKET2]: SOCKET is an alertsd with a work delay (so that writes
overlap) whose process is PID (the last check stops it), SOCKET2 one
without delay and with a fresh store, for the large-result checks.
Prints one line per check; exits 1 when one fails."""

import array
import fcntl
import hashlib
import json
import os
import re
import signal
import socket
import struct
import sys
import time
import uuid

from cetp_wire import (CALL, CANCEL, GOAWAY, LAUNCH, LAUNCHED, RESULT, Closed, Conn, Fd, Int, Ints, Long, Reader, Resolution,
                       call_frame, encode_section, frame, string)

# The §5 table of docs/protocol.md: code -> retryable (None: depends).
ERROR_TABLE = {
    "UNSUPPORTED_VERSION": False, "UNSUPPORTED_CAPABILITY": False, "NEGOTIATION_REQUIRED": True,
    "AUTH_REQUIRED": None, "USER_ACTION_REQUIRED": None, "USER_CANCELLED": False,
    "PERMISSION_DENIED": False, "TOOL_NOT_FOUND": False, "METHOD_NOT_FOUND": False,
    "INVALID_ARGS": False, "INVALID_REQUEST": False, "CONFLICT": None, "RATE_LIMITED": True,
    "DEADLINE_EXCEEDED": None, "CANCELLED": False, "RESULT_TOO_LARGE": False,
    "RESULT_EXPIRED": False, "UNAVAILABLE": True, "INTERNAL_ERROR": None,
}

# binding-unix.md §8: the worked example.
DOC_NEGOTIATE_HEX = ("000000430100000001096e65676f7469617465000215636f6e73756d65725f6361706162696c69746965"
                     "7303025b5d11636f6e73756d65725f76657273696f6e73040100000002")

SENSITIVITIES = ("public", "personal", "financial", "health", "device", "other")

# protocol.md §3.4: the seven annotations and their values.
ANNOTATIONS = {
    "effect": ("read", "create", "update", "delete", "transaction"),
    "risk": ("low", "moderate", "high"),
    "destructive": (True, False), "idempotent": (True, False), "open_world": (True, False),
    "confirmation": ("never", "provider_policy", "always"),
    "execution": ("sync", "sync_or_async"),
}

FAILURES = []


class CheckFailed(Exception):
    pass


def expect(cond, what):
    if not cond:
        raise CheckFailed(what)


def check(name):
    """Runs the decorated function at once as one named check."""
    def run(fn):
        try:
            fn()
            print("ok   " + name)
        except Exception as e:  # a failed check is reported, the others still run
            FAILURES.append(name)
            print("FAIL %s: %s: %s" % (name, type(e).__name__, e))
        return fn
    return run


def expect_error(b, code, request_id=None, echo=True):
    """The §5 error shape: status error, error_code (code, or any code of
    the table when code is None), a message, retryable per the table, the
    echoed protocol_version and request_id."""
    expect(b.get("status") == "error", "status %r, want error (%r)" % (b.get("status"), b))
    if code is None:
        code = b.get("error_code")
        expect(code in ERROR_TABLE, "error_code %r is not in the §5 table" % (code,))
    expect(b.get("error_code") == code, "error_code %r, want %s (%r)" % (b.get("error_code"), code, b))
    expect(isinstance(b.get("error_message"), str), "error_message is not a String: %r" % (b,))
    expect(isinstance(b.get("retryable"), bool), "retryable is not a Boolean: %r" % (b,))
    want = ERROR_TABLE[code]
    if want is not None:
        expect(b["retryable"] is want, "%s retryable %r, want %r" % (code, b["retryable"], want))
    if echo:
        expect(type(b.get("protocol_version")) is Int and b["protocol_version"] == 2,
               "protocol_version %r, want Int 2" % (b.get("protocol_version"),))
        if request_id is not None:
            expect(b.get("request_id") == request_id, "request_id %r, want %r" % (b.get("request_id"), request_id))
    if "error_details" in b:
        expect(isinstance(b["error_details"], str), "error_details is not a String")
        json.loads(b["error_details"])
    if "retry_after_ms" in b:
        expect(type(b["retry_after_ms"]) in (Int, Long), "retry_after_ms is not an Int or Long")


def check_descriptor(t, scopes):
    """A listed tool as §3.1, §3.4 and binding §10 describe it."""
    expect(re.fullmatch(r"[a-z][a-z0-9_]{0,63}", t["name"]), "tool name %r" % t["name"])
    for k in ("input_schema", "output_schema"):
        expect(isinstance(t.get(k), dict), "%s: %s %r" % (t["name"], k, t.get(k)))
    expect(set(t["scopes"]) <= scopes, "%s: scopes %r outside the catalog" % (t["name"], t["scopes"]))
    a = t["annotations"]
    for k, values in ANNOTATIONS.items():
        expect(k in a and any(a[k] is v if isinstance(v, bool) else a[k] == v for v in values),
               "%s: annotation %s = %r" % (t["name"], k, a.get(k)))
    if a["effect"] in ("delete", "transaction") or a["destructive"] or a["risk"] == "high":
        expect(a["confirmation"] == "always", "%s needs confirmation always: %r" % (t["name"], a))
    if a["effect"] == "read":
        expect(not a["destructive"], "%s: a destructive read" % t["name"])


def data_of(b, request_id=None):
    """The JSON data of a success, with its echoes checked."""
    expect(b.get("status") == "success", "status %r, want success (%r)" % (b.get("status"), b))
    if request_id is not None:
        expect(b.get("request_id") == request_id, "request_id %r, want %r" % (b.get("request_id"), request_id))
        expect(b.get("protocol_version") == 2, "protocol_version %r" % (b.get("protocol_version"),))
    expect(isinstance(b.get("data"), str), "data is not a String: %r" % (b,))
    return json.loads(b["data"])


def inline_value(b, request_id=None):
    d = data_of(b, request_id)
    expect(d.get("kind") == "inline", "data kind %r, want inline" % (d.get("kind"),))
    expect("value" in d, "inline data without value")
    return d["value"]


class Session:
    """A negotiated v2 session on one connection."""

    def __init__(self, conn, caps=()):
        self.conn = conn
        b = conn.call("negotiate", {"consumer_versions": Ints([2]),
                                    "consumer_capabilities": json.dumps(list(caps))})
        self.info = data_of(b)
        self.token = self.info["session_token"]

    def common(self, request_id=None, deadline_ms=10000):
        return {"protocol_version": Int(2), "session_token": self.token,
                "request_id": request_id or str(uuid.uuid4()),
                "deadline_at_ms": Long(int(time.time() * 1000) + deadline_ms)}

    def call(self, method, request_id=None, **keys):
        b = self.common(request_id)
        b.update(keys)
        return self.conn.call(method, b), b["request_id"]

    def execute(self, tool, args, request_id=None, raw_args=None, **keys):
        b = self.common(request_id)
        b.update(tool_name=tool, args=raw_args if raw_args is not None else json.dumps(args), **keys)
        return self.conn.call("execute_tool", b), b["request_id"]


def expect_goaway(path, data, what):
    """Sends data on a new connection; the server must answer GoAway (type
    6, request 0, a reason of at most 1024 bytes) and close (§5)."""
    c = Conn(path)
    try:
        c.send(data)
        try:
            ftype, request, payload = c.read_frame()
        except Closed:
            raise CheckFailed("%s: the connection closed without GoAway" % what)
        expect(ftype == GOAWAY, "%s: frame type %d, want GoAway" % (what, ftype))
        expect(request == 0, "%s: GoAway request number %d" % (what, request))
        r = Reader(payload)
        r.string(0, 1024)
        expect(r.done(), "%s: bytes after the GoAway reason" % what)
        try:
            c.read_frame()
            raise CheckFailed("%s: a frame after GoAway" % what)
        except Closed:
            pass
    finally:
        c.close()


def read_file_result(b, request_id, limit):
    """A file result of binding §10: checks the declared size against a
    local cap, reads at most size_bytes + 1 bytes, compares size and
    SHA-256, closes the descriptor, and returns the parsed JSON (the
    tool's output)."""
    fd = b.get("result_fd")
    expect(isinstance(fd, Fd), "no result_fd descriptor: %r" % ({k: v for k, v in b.items() if k != "data"},))
    try:
        d = data_of(b, request_id)
        expect(d.get("kind") == "file" and d.get("media_type") == "application/json", "file data %r" % d)
        size, digest = d["size_bytes"], d["sha256"]
        expect(limit < size <= 64 * 1024 * 1024, "size_bytes %r" % size)
        expect(re.fullmatch(r"[0-9a-f]{64}", digest), "sha256 %r" % digest)
        expect(fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE == os.O_RDONLY, "the descriptor is not read-only")
        got = bytearray()
        while len(got) <= size:
            chunk = os.read(fd, size + 1 - len(got))
            if not chunk:
                break
            got += chunk
    finally:
        os.close(fd)
    expect(len(got) == size, "read %d bytes, size_bytes %d" % (len(got), size))
    expect(hashlib.sha256(got).hexdigest() == digest, "sha256 mismatch")
    return json.loads(got)


def check_large_results(path):
    """§4.5 against a daemon without work delay and a fresh store: a
    listing past max_inline_result_bytes."""
    c = Conn(path)
    big = Session(c, ["large_results"])
    small = Session(c)
    limit = big.info["limits"]["max_inline_result_bytes"]
    state = {}

    @check("§4.5 a listing past max_inline_result_bytes: RESULT_TOO_LARGE without large_results")
    def _():
        expect("large_results" in big.info["capabilities"], "capabilities %r" % big.info["capabilities"])
        # 200 alerts with notes of 200 "<" (which JSON writers may escape)
        # make one page of list_alerts pass the minimum boundary, 262144.
        for i in range(200):
            a = inline_value(small.execute("create_alert", {"symbol": "BIG%d" % i, "price": 1})[0])
            inline_value(small.execute("update_alert", {"alert_id": a["alert_id"], "note": "<" * 200})[0])
        b, rid = small.execute("list_alerts", {"page_size": 200})
        if b.get("status") == "success":
            raise CheckFailed("a listing of %d bytes stayed inline; this check needs one past %d"
                              % (len(b["data"].encode()), limit))
        expect_error(b, "RESULT_TOO_LARGE", rid)
        state["ready"] = True

    @check("§4.5 with large_results: a read-only descriptor whose size and SHA-256 match")
    def _():
        expect(state.get("ready"), "no large listing")
        b, rid = big.execute("list_alerts", {"page_size": 200})
        v = read_file_result(b, rid, limit)
        expect(len(v["alerts"]) == 200, "%d alerts in the file" % len(v["alerts"]))
        expect(not c.fds, "descriptors left queued: %r" % c.fds)
        small_page = inline_value(big.execute("list_alerts", {"page_size": 5})[0])
        expect(len(small_page["alerts"]) == 5, "a small page: %r" % small_page)

    @check("binding §4 two file results in flight: each frame takes its own descriptor")
    def _():
        expect(state.get("ready"), "no large listing")
        rids = {}
        for _ in range(2):
            n = c.request_number()
            b = big.common()
            b.update(tool_name="list_alerts", args=json.dumps({"page_size": 200}))
            rids[n] = b["request_id"]
            c.send(call_frame(n, "execute_tool", b))
        for _ in range(2):
            ftype, request, b = c.read_answer()
            expect(ftype == RESULT and request in rids, "answer %d/%d" % (ftype, request))
            v = read_file_result(b, rids.pop(request), limit)
            expect(len(v["alerts"]) == 200, "%d alerts in the file" % len(v["alerts"]))
        expect(not c.fds, "descriptors left queued: %r" % c.fds)

    c.close()


def main(path, large_path=None):
    state = {}

    @check("binding §8: the encoder writes the worked example's bytes")
    def _():
        got = call_frame(1, "negotiate", {"consumer_capabilities": "[]", "consumer_versions": Ints([2])})
        expect(got.hex() == DOC_NEGOTIATE_HEX, got.hex())

    @check("§2.2 negotiate: the worked example's frame selects version 2")
    def _():
        c = Conn(path)
        c.send(bytes.fromhex(DOC_NEGOTIATE_HEX))
        ftype, request, b = c.read_answer()
        expect(ftype == RESULT and request == 1, "answer %d/%d" % (ftype, request))
        d = data_of(b)
        for k in ("selected_version", "provider_id", "provider_name", "session_token", "expires_at",
                  "capabilities", "limits"):
            expect(k in d, "negotiate data lacks %s: %r" % (k, d))
        expect(d["selected_version"] == 2, "selected_version %r" % d["selected_version"])
        expect(d["capabilities"] == [], "capabilities %r for a Consumer that asked none" % d["capabilities"])
        expect(isinstance(d["session_token"], str) and 0 < len(d["session_token"].encode()) <= 256,
               "session_token %r" % d["session_token"])
        lim = d["limits"]
        for k, lo in (("max_request_bytes", 65536), ("max_inline_result_bytes", 262144),
                      ("max_concurrent_requests", 1), ("idempotency_window_seconds", 86400)):
            expect(lim.get(k, 0) >= lo, "limit %s %r below %d" % (k, lim.get(k), lo))
        state["provider_id"] = d["provider_id"]
        c.close()

    @check("§2.2 negotiate: highest common version, only capabilities both support")
    def _():
        c = Conn(path)
        b = c.call("negotiate", {"consumer_versions": Ints([3, 2]),
                                 "consumer_capabilities": json.dumps(
                                     ["async_operations", "cancellation", "large_results", "teleport"])})
        d = data_of(b)
        expect(d["selected_version"] == 2, "selected_version %r" % d["selected_version"])
        caps = d["capabilities"]
        expect("teleport" not in caps, "an unknown capability was selected: %r" % caps)
        expect(set(caps) <= {"async_operations", "cancellation", "large_results"}, "capabilities %r" % caps)
        c.close()

    @check("§2.2 negotiate: no common version is UNSUPPORTED_VERSION")
    def _():
        c = Conn(path)
        b = c.call("negotiate", {"consumer_versions": Ints([7]), "consumer_capabilities": "[]"})
        expect_error(b, "UNSUPPORTED_VERSION", echo=False)
        c.close()

    conn = Conn(path)
    s = Session(conn)

    @check("§3.2 get_provider_info answers the Provider's description")
    def _():
        b, rid = s.call("get_provider_info")
        d = data_of(b, rid)
        expect(d.get("provider_id") == state["provider_id"], "provider_id %r" % (d.get("provider_id"),))
        expect(isinstance(d.get("description"), str), "description %r" % (d.get("description"),))
        expect(d.get("schema_dialect") == "https://json-schema.org/draft/2020-12/schema",
               "schema_dialect %r" % (d.get("schema_dialect"),))
        expect(d.get("scopes"), "no scope catalog")
        for sc in d["scopes"]:
            expect(re.fullmatch(r"[a-z][a-z0-9_.-]{0,127}", sc["name"]), "scope name %r" % sc["name"])
            expect(sc["access"] in ("read", "write"), "access %r" % sc["access"])
            expect(sc["sensitivity"] in SENSITIVITIES, "sensitivity %r" % sc["sensitivity"])
        state["scopes"] = {sc["name"] for sc in d["scopes"]}

    @check("§3.3 list_tools: revision and the four tools, sync_or_async listed as sync without the capability")
    def _():
        b, rid = s.call("list_tools")
        d = data_of(b, rid)
        expect(isinstance(d.get("revision"), str) and d["revision"], "revision %r" % (d.get("revision"),))
        names = sorted(t["name"] for t in d["tools"])
        expect(names == ["create_alert", "delete_alert", "list_alerts", "update_alert"], "tools %r" % names)
        create = [t for t in d["tools"] if t["name"] == "create_alert"][0]
        expect(create["annotations"]["execution"] == "sync",
               "create_alert execution %r on a session without async_operations" % create["annotations"])
        for t in d["tools"]:
            check_descriptor(t, state["scopes"])
        state["sync_revision"] = d["revision"]

    @check("§3.3 list_tools with async_operations: sync_or_async, and another revision")
    def _():
        c = Conn(path)
        sa = Session(c, ["async_operations"])
        b, rid = sa.call("list_tools")
        d = data_of(b, rid)
        create = [t for t in d["tools"] if t["name"] == "create_alert"][0]
        expect(create["annotations"]["execution"] == "sync_or_async", "create_alert %r" % create["annotations"])
        expect(d["revision"] != state["sync_revision"], "one revision %r for two listings" % d["revision"])
        c.close()

    @check("§4.2 a read call answers inline data")
    def _():
        b, rid = s.execute("list_alerts", {"symbol": "600519.SH"})
        v = inline_value(b, rid)
        expect(v.get("alerts") == [] and "next_page_token" in v, "list_alerts on an empty store: %r" % v)

    @check("§6 a write retried with its request ID: the same result, one effect")
    def _():
        rid = str(uuid.uuid4())
        args = {"symbol": "600519.SH", "price": 1688}
        first = inline_value(s.execute("create_alert", args, rid)[0], rid)
        again = inline_value(s.execute("create_alert", args, rid)[0], rid)
        expect(first == again, "retry answered %r, first %r" % (again, first))
        # binding §5: a session token stays valid on a new connection.
        c2 = Conn(path)
        s2 = Session.__new__(Session)
        s2.conn, s2.token = c2, s.token
        other = inline_value(s2.execute("create_alert", args, rid)[0], rid)
        c2.close()
        expect(other == first, "retry on a new connection answered %r, first %r" % (other, first))
        listed = inline_value(s.execute("list_alerts", {"symbol": "600519.SH"})[0])["alerts"]
        expect([a["alert_id"] for a in listed] == [first["alert_id"]], "alerts after three tries: %r" % listed)
        state["alert_id"], state["create_rid"] = first["alert_id"], rid

    @check("§6 the same request ID with other arguments is INVALID_REQUEST")
    def _():
        rid = state["create_rid"]
        b, _ = s.execute("create_alert", {"symbol": "600519.SH", "price": 1700}, rid)
        expect_error(b, "INVALID_REQUEST", rid)
        listed = inline_value(s.execute("list_alerts", {})[0])["alerts"]
        expect(len(listed) == 1, "alerts: %r" % listed)

    @check("§6 the same request ID for another tool is INVALID_REQUEST")
    def _():
        rid = state["create_rid"]
        b, _ = s.execute("update_alert", {"alert_id": state["alert_id"], "price": 1700}, rid)
        expect_error(b, "INVALID_REQUEST", rid)

    @check("§6 an idempotent update is deduplicated too: the retry answers the stored result")
    def _():
        rid = str(uuid.uuid4())
        args = {"alert_id": state["alert_id"], "note": "first"}
        first = inline_value(s.execute("update_alert", args, rid)[0], rid)
        time.sleep(0.02)
        again = inline_value(s.execute("update_alert", args, rid)[0], rid)
        expect(again == first, "retry answered %r, first %r" % (again, first))

    @check("consumer.md a stored failure: the retry under its ID answers what the first call answered")
    def _():
        rid = str(uuid.uuid4())
        args = {"alert_id": "a_missing", "price": 3}
        first, _ = s.execute("update_alert", args, rid)
        expect_error(first, None, rid)
        again, _ = s.execute("update_alert", args, rid)
        expect(again == first, "retry answered %r, first %r" % (again, first))

    @check("§4 an unknown method is METHOD_NOT_FOUND")
    def _():
        b, rid = s.call("summon_alerts")
        expect_error(b, "METHOD_NOT_FOUND", rid)

    @check("§5 an unknown tool is TOOL_NOT_FOUND")
    def _():
        b, rid = s.execute("launch_rocket", {})
        expect_error(b, "TOOL_NOT_FOUND", rid)

    @check("§5 arguments that break the input schema are INVALID_ARGS")
    def _():
        b, rid = s.execute("create_alert", {"symbol": "600519.SH", "price": -1})
        expect_error(b, "INVALID_ARGS", rid)

    @check("§5 args that are not JSON are INVALID_ARGS")
    def _():
        b, rid = s.execute("create_alert", None, raw_args='{"symbol": "600519.SH", "price": ')
        expect_error(b, "INVALID_ARGS", rid)

    @check("§5 args that are JSON but not an object are INVALID_ARGS")
    def _():
        b, rid = s.execute("list_alerts", None, raw_args="[]")
        expect_error(b, "INVALID_ARGS", rid)

    @check("§4.1 args past max_request_bytes are INVALID_ARGS")
    def _():
        cap = s.info["limits"]["max_request_bytes"]
        b, rid = s.execute("list_alerts", None, raw_args=json.dumps({"symbol": "x" * cap}))
        expect_error(b, "INVALID_ARGS", rid)

    @check("binding §10 a protocol_version other than 1 or 2 is UNSUPPORTED_VERSION")
    def _():
        b = s.common()
        b.update(protocol_version=Int(3), tool_name="list_alerts", args="{}")
        expect_error(conn.call("execute_tool", b), "UNSUPPORTED_VERSION", b["request_id"])

    @check("binding §10 negotiate without consumer_capabilities, or with a bad one, is INVALID_REQUEST")
    def _():
        expect_error(conn.call("negotiate", {"consumer_versions": Ints([2])}), "INVALID_REQUEST")
        expect_error(conn.call("negotiate", {"consumer_versions": Ints([2]), "consumer_capabilities": "[1]"}),
                     "INVALID_REQUEST")

    @check("§2.2 an unknown session token is NEGOTIATION_REQUIRED")
    def _():
        b = s.common()
        b.update(session_token="not-a-session", tool_name="list_alerts", args="{}")
        expect_error(conn.call("execute_tool", b), "NEGOTIATION_REQUIRED", b["request_id"])

    @check("§4.1 a request without request_id is INVALID_REQUEST")
    def _():
        b = s.common()
        del b["request_id"]
        b.update(tool_name="list_alerts", args="{}")
        expect_error(conn.call("execute_tool", b), "INVALID_REQUEST")

    @check("§4.1 a deadline already past: DEADLINE_EXCEEDED, no effect")
    def _():
        b = s.common(deadline_ms=-1000)
        b.update(tool_name="create_alert", args=json.dumps({"symbol": "DEADLINE", "price": 1}))
        expect_error(conn.call("execute_tool", b), "DEADLINE_EXCEEDED", b["request_id"])
        listed = inline_value(s.execute("list_alerts", {"symbol": "DEADLINE"})[0])["alerts"]
        expect(listed == [], "alerts after a call past its deadline: %r" % listed)

    @check("§2.3 get_operation without async_operations is UNSUPPORTED_CAPABILITY")
    def _():
        b, rid = s.call("get_operation", operation_id="op_0")
        expect_error(b, "UNSUPPORTED_CAPABILITY", rid)

    @check("§4.3 confirmation: USER_ACTION_REQUIRED, Launch, resume denied as USER_CANCELLED, no effect")
    def _():
        rid = str(uuid.uuid4())
        args = {"alert_id": state["alert_id"]}
        b, _ = s.execute("delete_alert", args, rid)
        expect_error(b, "USER_ACTION_REQUIRED", rid)
        res, token = b.get("resolution"), b.get("resume_token")
        expect(isinstance(res, Resolution) and 0 < len(res.encode()) <= 256,
               "resolution %r, want a PendingIntent (kind 6)" % (res,))
        expect(isinstance(token, str) and token, "resume_token %r" % (token,))
        launched = conn.launch(res)
        expect(launched == {"status": "success"}, "Launched %r, want {status: success}" % (launched,))
        again = conn.launch(res)
        expect_error(again, "CONFLICT", echo=False)
        expect("protocol_version" not in again and "request_id" not in again,
               "a Launched error echoes request fields: %r" % (again,))
        b, _ = s.execute("delete_alert", args, rid, resume_token=token)
        expect_error(b, "USER_CANCELLED", rid)
        b, _ = s.execute("delete_alert", args, rid, resume_token=token)
        expect(b.get("status") == "error", "the used resume_token answered %r" % (b,))
        listed = inline_value(s.execute("list_alerts", {})[0])["alerts"]
        expect([a["alert_id"] for a in listed] == [state["alert_id"]], "alerts after a denial: %r" % listed)

    @check("binding §2 a Launch of a resolution nobody made: an error without the request echo")
    def _():
        b = conn.launch("no-such-resolution")
        expect_error(b, None, echo=False)
        expect("protocol_version" not in b and "request_id" not in b, "Launched %r" % (b,))

    @check("binding §1 several Calls in flight on one connection, answered by number")
    def _():
        rids = {}
        for _ in range(3):
            n = conn.request_number()
            b = s.common()
            b.update(tool_name="list_alerts", args="{}")
            rids[n] = b["request_id"]
            conn.send(call_frame(n, "execute_tool", b))
        seen = {}
        while len(seen) < 3:
            ftype, request, b = conn.read_answer()
            expect(ftype == RESULT and request in rids and request not in seen, "answer %d/%d" % (ftype, request))
            seen[request] = b
        for n, b in seen.items():
            inline_value(b, rids[n])

    @check("binding §1 past max_concurrent_requests: RATE_LIMITED, retryable, retry_after_ms, no effect")
    def _():
        # create_alert works for the daemon's --work-delay, so these overlap.
        many = s.info["limits"]["max_concurrent_requests"] + 4
        rids = {}
        for i in range(many):
            n = conn.request_number()
            b = s.common()
            b.update(tool_name="create_alert", args=json.dumps({"symbol": "RATE", "price": i + 1}))
            rids[n] = b["request_id"]
            conn.send(call_frame(n, "execute_tool", b))
        done, limited = 0, 0
        for _ in range(many):
            ftype, request, b = conn.read_answer()
            expect(ftype == RESULT and request in rids, "answer %d/%d" % (ftype, request))
            if b.get("status") == "success":
                done += 1
                continue
            expect_error(b, "RATE_LIMITED", rids[request])
            expect("retry_after_ms" in b, "RATE_LIMITED without retry_after_ms: %r" % (b,))
            limited += 1
        expect(limited > 0, "%d overlapping writes, none RATE_LIMITED" % many)
        listed = inline_value(s.execute("list_alerts", {"symbol": "RATE"})[0])["alerts"]
        expect(len(listed) == done, "%d alerts after %d successes" % (len(listed), done))

    @check("§4.3 a resume_token is bound to its arguments: other arguments are refused, no effect")
    def _():
        victim = inline_value(s.execute("create_alert", {"symbol": "TOKEN", "price": 3})[0])["alert_id"]
        rid = str(uuid.uuid4())
        b, _ = s.execute("delete_alert", {"alert_id": state["alert_id"]}, rid)
        expect_error(b, "USER_ACTION_REQUIRED", rid)
        other, _ = s.execute("delete_alert", {"alert_id": victim}, rid, resume_token=b["resume_token"])
        expect_error(other, None, rid)
        expect(other["error_code"] not in ("USER_ACTION_REQUIRED", "AUTH_REQUIRED"), "answer %r" % (other,))
        listed = sorted(a["alert_id"] for a in inline_value(s.execute("list_alerts", {})[0])["alerts"]
                        if a["symbol"] in ("TOKEN", "600519.SH"))
        expect(listed == sorted([victim, state["alert_id"]]), "alerts %r" % listed)

    @check("binding §2 a cancelled write: its answer discarded, the retry under its ID gives one effect")
    def _():
        b = s.common()
        b.update(tool_name="create_alert", args=json.dumps({"symbol": "CANCELLED", "price": 2}))
        n = conn.request_number()
        conn.send(call_frame(n, "execute_tool", b))
        time.sleep(0.1)
        conn.send(frame(CANCEL, n, b""))
        answer = None
        for _ in range(10):
            m = conn.request_number()
            conn.send(call_frame(m, "execute_tool", b))
            while True:  # the cancelled Call's Result may still come: discarded
                ftype, request, answer = conn.read_answer()
                if request == m:
                    break
                expect(request == n, "answer to number %d" % request)
            if answer.get("status") != "error" or not answer.get("retryable"):
                break
            time.sleep(answer.get("retry_after_ms", 100) / 1000)
        value = inline_value(answer, b["request_id"])
        listed = inline_value(s.execute("list_alerts", {"symbol": "CANCELLED"})[0])["alerts"]
        expect([a["alert_id"] for a in listed] == [value["alert_id"]], "alerts %r, answer %r" % (listed, value))

    @check("binding §2 a Cancel for a number that is not running is ignored")
    def _():
        conn.send(frame(CANCEL, 999, b""))
        inline_value(s.execute("list_alerts", {})[0])

    @check("§4.4 async_operations: accepted, get_operation until succeeded, the retry gets the same")
    def _():
        c = Conn(path)
        sa = Session(c, ["async_operations", "cancellation"])
        expect("async_operations" in sa.info["capabilities"], "capabilities %r" % sa.info["capabilities"])
        rid = str(uuid.uuid4())
        args = {"symbol": "AAPL", "price": 200}
        b, _ = sa.execute("create_alert", args, rid)
        expect(b.get("status") == "accepted", "status %r (%r)" % (b.get("status"), b))
        op = json.loads(b["data"])
        expect(op["operation_id"].startswith("op_") and isinstance(op["poll_after_ms"], int), "operation %r" % op)
        deadline = time.time() + 10
        while True:
            g, _ = sa.call("get_operation", rid, operation_id=op["operation_id"])
            st = data_of(g, rid)
            expect(st["operation_id"] == op["operation_id"], "operation %r" % st)
            if st["state"] not in ("queued", "running"):
                break
            expect(time.time() < deadline, "operation still %s" % st["state"])
            time.sleep(st.get("poll_after_ms", op["poll_after_ms"]) / 1000)
        expect(st["state"] == "succeeded", "state %r (%r)" % (st["state"], st))
        expect(st["result"]["kind"] == "inline" and "alert_id" in st["result"]["value"], "result %r" % st)
        again, _ = sa.execute("create_alert", args, rid)
        if again.get("status") == "accepted":
            expect(json.loads(again["data"])["operation_id"] == op["operation_id"], "retry %r" % again)
        else:
            expect(inline_value(again, rid) == st["result"]["value"], "retry %r" % again)
        listed = inline_value(sa.execute("list_alerts", {"symbol": "AAPL"})[0])["alerts"]
        expect(len(listed) == 1, "AAPL alerts: %r" % listed)
        g, _ = sa.call("get_operation", operation_id=op["operation_id"])
        expect_error(g, "INVALID_REQUEST", g.get("request_id"))
        g, _ = sa.call("get_operation", rid, operation_id="op_00000000000000000000000000000000")
        expect_error(g, "INVALID_REQUEST", rid)
        g, _ = sa.call("cancel_operation", rid, operation_id=op["operation_id"])
        expect_error(g, "CONFLICT", rid)
        c.close()

    @check("§4.4 cancel_operation: cancellation_requested, then cancelled or succeeded, never both")
    def _():
        c = Conn(path)
        sa = Session(c, ["async_operations", "cancellation"])
        expect("cancellation" in sa.info["capabilities"], "capabilities %r" % sa.info["capabilities"])
        rid = str(uuid.uuid4())
        b, _ = sa.execute("create_alert", {"symbol": "CANCEL", "price": 5}, rid)
        expect(b.get("status") == "accepted", "status %r (%r)" % (b.get("status"), b))
        op = json.loads(b["data"])["operation_id"]
        g, _ = sa.call("cancel_operation", rid, operation_id=op)
        if g.get("status") == "error":
            expect_error(g, "CONFLICT", rid)  # it had already succeeded
        else:
            expect(data_of(g, rid) == {"operation_id": op, "state": "cancellation_requested"}, "answer %r" % (g,))
        deadline = time.time() + 10
        while True:
            st = data_of(sa.call("get_operation", rid, operation_id=op)[0], rid)
            if st["state"] not in ("queued", "running"):
                break
            expect(time.time() < deadline, "operation still %s" % st["state"])
            time.sleep(0.05)
        listed = inline_value(sa.execute("list_alerts", {"symbol": "CANCEL"})[0])["alerts"]
        if st["state"] == "cancelled":
            expect(listed == [], "a cancelled operation left alerts %r" % listed)
        else:
            expect(st["state"] == "succeeded" and len(listed) == 1, "state %r, alerts %r" % (st, listed))
        c.close()

    @check("binding §2 a client that closes with a write running does not cancel it")
    def _():
        c = Conn(path)
        sc = Session(c)
        b = sc.common()
        b.update(tool_name="create_alert", args=json.dumps({"symbol": "CLOSED", "price": 9}))
        c.send(call_frame(c.request_number(), "execute_tool", b))
        time.sleep(0.05)
        c.close()
        c = Conn(path)
        sc.conn = c
        deadline = time.time() + 10
        while True:  # no retry yet: the alert must appear on its own
            listed = inline_value(sc.execute("list_alerts", {"symbol": "CLOSED"})[0])["alerts"]
            if listed or time.time() > deadline:
                break
            time.sleep(0.05)
        expect(len(listed) == 1, "alerts after the closed connection: %r" % listed)
        again = inline_value(sc.execute("create_alert", {"symbol": "CLOSED", "price": 9}, b["request_id"])[0])
        expect(again["alert_id"] == listed[0]["alert_id"], "retry %r, alert %r" % (again, listed))
        c.close()

    @check("binding §4 descriptors a client passes are discarded, the request is served")
    def _():
        c = Conn(path)
        r, w = os.pipe()
        try:
            data = call_frame(1, "negotiate", {"consumer_versions": Ints([2]), "consumer_capabilities": "[]"})
            c.sock.sendmsg([data], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [w]))])
            ftype, request, b = c.read_answer()
            expect(ftype == RESULT and request == 1, "answer %d/%d" % (ftype, request))
            data_of(b)
        finally:
            os.close(w)
            c.close()
        # The server closed its copy: with ours closed, the pipe's reader sees end of file.
        os.set_blocking(r, False)
        try:
            expect(os.read(r, 1) == b"", "the server kept the write end of the pipe")
        except BlockingIOError:
            raise CheckFailed("the server kept the write end of the pipe")
        finally:
            os.close(r)

    @check("§8 a call without protocol_version is v1: only the read tools, no write runs")
    def _():
        c = Conn(path)
        d = data_of(c.call("list_tools", {}))
        expect(sorted(t["name"] for t in d["tools"]) == ["list_alerts"], "v1 tools %r" % d["tools"])
        b = c.call("execute_tool", {"tool_name": "create_alert", "args": json.dumps({"symbol": "V1", "price": 1})})
        expect(b.get("status") == "error" and b.get("error_code") == "TOOL_NOT_FOUND",
               "v1 create_alert answered %r" % (b,))
        expect(not {"protocol_version", "retryable", "request_id"} & set(b), "v1 answer with v2 keys: %r" % (b,))
        c.close()
        listed = inline_value(s.execute("list_alerts", {"symbol": "V1"})[0])["alerts"]
        expect(listed == [], "v1 created %r" % listed)
        c = Conn(path)
        b = c.call("summon_alerts", {})
        expect(b.get("status") == "error" and b.get("error_code") == "TOOL_NOT_FOUND", "v1 unknown method %r" % (b,))
        d = data_of(c.call("execute_tool", {"protocol_version": Int(1), "tool_name": "list_alerts", "args": "{}"}))
        expect("alerts" in d, "protocol_version 1 answered %r, want v1 data" % (d,))
        c.close()

    conn.close()

    # §5 of the binding: malformed frames from the client get GoAway.
    header = lambda length, ftype=CALL, request=1: struct.pack(">IBI", length, ftype, request)
    good_payload = string("list_tools") + encode_section({})

    @check("binding §5 a length below 5: GoAway, closed")
    def _():
        expect_goaway(path, struct.pack(">I", 3) + b"\x01\x00\x00", "length 3")

    @check("binding §6 a declared length past the server's 1 MiB: GoAway before the body is sent")
    def _():
        expect_goaway(path, header(2 * 1024 * 1024), "length 2 MiB")

    @check("binding §6 a declared length of 4 GiB - 1: GoAway before the body is sent")
    def _():
        expect_goaway(path, header(0xFFFFFFFF), "length 0xffffffff")

    @check("binding §5 an unknown frame type: GoAway")
    def _():
        expect_goaway(path, frame(9, 1, good_payload), "type 9")

    @check("binding §5 a server-only frame type: GoAway")
    def _():
        expect_goaway(path, frame(RESULT, 1, b"\x00\x00"), "type Result")

    @check("binding §5 request number 0: GoAway")
    def _():
        expect_goaway(path, frame(CALL, 0, good_payload), "request 0")

    @check("binding §5 a method string past the frame: GoAway")
    def _():
        expect_goaway(path, frame(CALL, 1, b"\x40list"), "method past the frame")

    @check("binding §5 an empty method: GoAway")
    def _():
        expect_goaway(path, frame(CALL, 1, string("") + encode_section({})), "empty method")

    @check("binding §3 a descriptor key in a Call: GoAway")
    def _():
        expect_goaway(path, frame(CALL, 1, string("list_tools") + b"\x01" + string("result_fd") + b"\x00"),
                      "descriptor key in a Call")

    @check("binding §3.1 a descriptor kind in band: GoAway")
    def _():
        expect_goaway(path, frame(CALL, 1, string("list_tools") + b"\x00\x01" + string("x") + b"\x07"),
                      "kind 7 in band")

    @check("binding §3.1 an unknown kind: GoAway")
    def _():
        expect_goaway(path, frame(CALL, 1, string("list_tools") + b"\x00\x01" + string("x") + b"\x09\x00"),
                      "kind 9")

    @check("binding §3.1 a Boolean byte other than 0 or 1: GoAway")
    def _():
        expect_goaway(path, frame(CALL, 1, string("list_tools") + b"\x00\x01" + string("x") + b"\x05\x02"),
                      "Boolean 2")

    @check("binding §3.1 a duplicate key: GoAway")
    def _():
        entry = string("x") + b"\x03" + string("a")
        expect_goaway(path, frame(CALL, 1, string("list_tools") + b"\x00\x02" + entry + entry), "duplicate key")

    @check("binding §3.1 trailing bytes after the Bundle: GoAway")
    def _():
        expect_goaway(path, frame(CALL, 1, good_payload + b"\x00"), "trailing byte")

    @check("binding §6 a method of 65 bytes: GoAway")
    def _():
        expect_goaway(path, frame(CALL, 1, string("m" * 65) + encode_section({})), "method of 65 bytes")

    @check("binding §6 a Bundle key of 257 bytes: GoAway")
    def _():
        expect_goaway(path, frame(CALL, 1, string("list_tools") + b"\x00\x01" + string("k" * 257) + b"\x03\x00"),
                      "key of 257 bytes")

    @check("binding §6 a Bundle of 257 entries: GoAway")
    def _():
        bundle = {"k%03d" % i: "v" for i in range(257)}
        expect_goaway(path, frame(CALL, 1, string("list_tools") + encode_section(bundle)), "257 entries")

    @check("binding §6 an int[] of 1025 elements: GoAway")
    def _():
        expect_goaway(path, frame(CALL, 1, string("negotiate") + encode_section({"v": Ints([2] * 1025)})),
                      "int[] of 1025")

    @check("binding §6 a Launch of an empty resolution ID: GoAway")
    def _():
        expect_goaway(path, frame(LAUNCH, 1, string("")), "empty resolution ID")

    @check("binding §5 a client sending GoAway or Launched: GoAway")
    def _():
        expect_goaway(path, frame(GOAWAY, 0, string("bye")), "GoAway from the client")
        expect_goaway(path, frame(LAUNCHED, 1, b"\x00\x00"), "Launched from the client")

    @check("binding §2 reusing the number of a running request: GoAway")
    def _():
        c = Conn(path)
        sc = Session(c)
        b = sc.common()
        b.update(tool_name="create_alert", args=json.dumps({"symbol": "REUSE", "price": 1}))
        n = c.request_number()
        c.send(call_frame(n, "execute_tool", b) + call_frame(n, "list_tools", sc.common()))
        try:
            while True:
                ftype, request, _ = c.read_frame()
                if ftype == GOAWAY:
                    break
                expect(ftype == RESULT and request == n, "frame %d/%d" % (ftype, request))
        except Closed:
            raise CheckFailed("the connection closed without GoAway")
        c.close()

    @check("binding §6 a UID's 17th connection is closed at once; the 16 others serve")
    def _():
        # Connections of earlier checks may take a moment to leave the
        # server's count: an early refusal is tried again, a late one never.
        for attempt in range(3):
            time.sleep(0.2 * (attempt + 1))
            conns = []
            try:
                for _ in range(16):
                    conns.append(Conn(path))
                served = 0
                for c in conns:
                    try:
                        Session(c)
                        served += 1
                    except (Closed, OSError):
                        break
                extra = Conn(path)
                conns.append(extra)
                try:
                    extra.send(call_frame(1, "negotiate", {"consumer_versions": Ints([2]),
                                                           "consumer_capabilities": "[]"}))
                    extra.read_answer()
                    refused = False
                except (Closed, OSError):
                    refused = True
            finally:
                for c in conns:
                    c.close()
            if served == 16:
                break
        expect(served == 16, "only %d of 16 connections served" % served)
        expect(refused, "a 17th connection of one UID was served")

    @check("binding §5 after all that the server still serves")
    def _():
        # The 17 connections just closed leave the server's count as it
        # reads their end: a reset within that moment is tried again.
        deadline = time.time() + 3
        while True:
            c = Conn(path)
            try:
                sv = Session(c)
                break
            except (Closed, OSError):
                expect(time.time() < deadline, "no connection served")
                time.sleep(0.05)
            finally:
                c.close()
        c = Conn(path)
        sv.conn = c
        inline_value(sv.execute("list_alerts", {})[0])
        c.close()

    if large_path:
        check_large_results(large_path)

    @check("binding §7 SIGTERM: the running call finishes and answers, then the socket refuses")
    def _():
        pid = int(os.environ["ALERTSD_PID"])
        c = Conn(path)
        sd = Session(c)
        b = sd.common()
        b.update(tool_name="create_alert", args=json.dumps({"symbol": "SHUTDOWN", "price": 4}))
        n, m = c.request_number(), c.request_number()
        # A read sent after the write on the same connection, once
        # answered, shows that the server has read the write's frame.
        read = sd.common()
        read.update(tool_name="list_alerts", args="{}")
        c.send(call_frame(n, "execute_tool", b) + call_frame(m, "execute_tool", read))
        answers = {}
        while m not in answers:
            ftype, request, answer = c.read_answer()
            expect(ftype == RESULT and request in (n, m), "answer %d/%d" % (ftype, request))
            answers[request] = answer
        os.kill(pid, signal.SIGTERM)
        if n not in answers:
            ftype, request, answers[n] = c.read_answer()
            expect(ftype == RESULT and request == n, "answer %d/%d" % (ftype, request))
        inline_value(answers[n], b["request_id"])
        c.close()
        deadline = time.time() + 10
        while True:
            try:
                Conn(path).close()
            except OSError:
                break
            expect(time.time() < deadline, "the socket still accepts after SIGTERM")
            time.sleep(0.05)

    if FAILURES:
        print("%d check(s) failed" % len(FAILURES))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
