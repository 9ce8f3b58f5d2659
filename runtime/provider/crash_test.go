package provider_test

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/provider/providertest"
	"github.com/cetpgen/cetpgen/runtime/store/sqlitestore"
)

// The crash test re-executes the test binary as a child Provider on a
// SQLite file (crashChildEnv names the file) and talks to it over a
// minimal framed protocol on stdin/stdout: each frame is a big-endian
// uint32 length and a binary Bundle; requests carry the method under
// methodKey. This transport is internal to the test.
const (
	crashChildEnv  = "CETP_CRASH_CHILD_DB"
	crashSelfKill  = "CETP_CRASH_SELF_KILL"
	crashKillsEnv  = "CETP_CRASH_KILLS"
	crashAsyncEnv  = "CETP_CRASH_ASYNC"
	methodKey      = "@method"
	maxFrameBytes  = 1 << 20
	defaultKillRun = 200
)

var crashKills = flag.Int("crash-kills", envInt(crashKillsEnv, defaultKillRun), "SIGKILL points of TestCrashSafety")

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

func writeFrame(w io.Writer, b protocol.Bundle) error {
	payload, err := protocol.MarshalBundle(b)
	if err != nil {
		return err
	}
	frame := binary.BigEndian.AppendUint32(nil, uint32(len(payload)))
	_, err = w.Write(append(frame, payload...))
	return err
}

func readFrame(r io.Reader) (protocol.Bundle, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(hdr[:])
	if n > maxFrameBytes {
		return nil, fmt.Errorf("frame of %d bytes", n)
	}
	payload := make([]byte, n)
	if _, err := io.ReadFull(r, payload); err != nil {
		return nil, err
	}
	return protocol.UnmarshalBundle(payload)
}

// crashHandler is create_alert for the child: it inserts the alert and
// bumps a per-request effect counter in the store's transaction, and, when
// the parent asks for it, kills its own process between the two
// statements, inside the open transaction.
func crashHandler(selfKill bool) provider.Handler {
	return func(ctx context.Context, call *provider.Call, args json.RawMessage) (json.RawMessage, error) {
		var in struct{ Symbol string }
		if err := json.Unmarshal(args, &in); err != nil {
			return nil, err
		}
		res, err := call.Tx.ExecContext(ctx, `INSERT INTO alerts (request_id, symbol) VALUES (?, ?)`, call.RequestID, in.Symbol)
		if err != nil {
			return nil, err
		}
		if selfKill && rand.IntN(4) == 0 {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {}
		}
		if _, err := call.Tx.ExecContext(ctx, `INSERT INTO effects (request_id, n) VALUES (?, 1)
ON CONFLICT (request_id) DO UPDATE SET n = n + 1`, call.RequestID); err != nil {
			return nil, err
		}
		id, _ := res.LastInsertId()
		return json.RawMessage(fmt.Sprintf(`{"alert_id":"a-%d"}`, id)), nil
	}
}

const crashDDL = alertsDDL + `;
CREATE TABLE IF NOT EXISTS effects (request_id TEXT PRIMARY KEY, n INTEGER NOT NULL)`

// runCrashChild serves frames from stdin until EOF.
func runCrashChild(path string) error {
	st, err := sqlitestore.Open(path, sqlitestore.Options{Synchronous: sqlitestore.SyncFull})
	if err != nil {
		return err
	}
	defer st.Close()
	if _, err := st.DB().Exec(crashDDL); err != nil {
		return err
	}
	p, err := crashProvider(st)
	if err != nil {
		return err
	}
	defer p.Close(context.Background())
	in, out := bufio.NewReader(os.Stdin), bufio.NewWriter(os.Stdout)
	caller := provider.Caller{UID: os.Getuid()} // the peer of the pipe is the parent
	for {
		req, err := readFrame(in)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		method, _, _ := req.String(methodKey)
		delete(req, methodKey)
		if err := writeFrame(out, p.Call(context.Background(), caller, method, req)); err != nil {
			return err
		}
		if err := out.Flush(); err != nil {
			return err
		}
	}
}

// crashProvider is the child's Provider. With crashAsyncEnv set,
// create_alert is sync_or_async and the Provider offers async_operations,
// so every write runs as a background operation.
func crashProvider(st *sqlitestore.Store) (*provider.Provider, error) {
	desc := provider.Descriptor{ID: providerA, Name: "Example App", Versions: []int{2}}
	ann := writes(provider.EffectCreate, provider.ConfirmNever)
	if os.Getenv(crashAsyncEnv) == "1" {
		desc.Capabilities = []string{protocol.CapAsyncOperations}
		ann.Execution = provider.ExecSyncOrAsync
	}
	return provider.New(desc, []provider.Tool{{
		Name: "create_alert", Title: "创建价格提醒", Description: "为指定证券创建价格提醒",
		InputSchema: json.RawMessage(alertIn), OutputSchema: json.RawMessage(alertOut),
		Annotations: ann, Handler: crashHandler(os.Getenv(crashSelfKill) == "1"),
	}}, provider.Options{Store: st})
}

// crashChild is one child Provider process.
type crashChild struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	token  string
	killed atomic.Bool
}

func startChild(t *testing.T, path string, selfKill bool, env ...string) *crashChild {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashSafety$")
	cmd.Env = append(os.Environ(), crashChildEnv+"="+path, crashSelfKill+"="+map[bool]string{true: "1", false: "0"}[selfKill])
	cmd.Env = append(cmd.Env, env...)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return &crashChild{cmd: cmd, in: in, out: bufio.NewReader(out)}
}

func (c *crashChild) call(method string, b protocol.Bundle) (protocol.Bundle, error) {
	b[methodKey] = protocol.String(method)
	if err := writeFrame(c.in, b); err != nil {
		return nil, err
	}
	return readFrame(c.out)
}

func (c *crashChild) negotiate(caps ...string) error {
	asked, _ := json.Marshal(append([]string{}, caps...))
	b, err := c.call(protocol.MethodNegotiate, protocol.Bundle{
		protocol.KeyConsumerVersions: protocol.IntArray{2}, protocol.KeyConsumerCapabilities: protocol.String(asked)})
	if err != nil {
		return err
	}
	s, _, _ := b.String(protocol.KeyData)
	var d struct {
		SessionToken string `json:"session_token"`
	}
	if err := json.Unmarshal([]byte(s), &d); err != nil || d.SessionToken == "" {
		return fmt.Errorf("negotiate: %v", b)
	}
	c.token = d.SessionToken
	return nil
}

// stop ends the child: SIGKILL, or a clean EOF. It reports whether the
// process died by SIGKILL.
func (c *crashChild) stop(kill bool) bool {
	if kill {
		c.cmd.Process.Kill()
	}
	c.in.Close()
	err := c.cmd.Wait()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
			return true
		}
	}
	return false
}

type crashRequest struct {
	id, args string
}

// TestCrashSafety kills a child Provider with SIGKILL at random points
// (from outside at a random delay after a request, and from inside the
// handler between its two statements) while the client retries writes
// with the same request IDs, and proves that every acknowledged result is
// served again unchanged and that no effect ever happened twice.
func TestCrashSafety(t *testing.T) {
	if path := os.Getenv(crashChildEnv); path != "" {
		if err := runCrashChild(path); err != nil {
			fmt.Fprintln(os.Stderr, "crash child:", err)
			os.Exit(3)
		}
		os.Exit(0)
	}
	path := filepath.Join(t.TempDir(), "crash.db")
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	acked := map[string]string{} // request ID -> data
	var sent []crashRequest
	var queue []crashRequest // unacknowledged, to retry with the same ID
	kills, started, inTx, midCall := 0, 0, 0, 0
	for kills < *crashKills {
		child := startChild(t, path, rng.IntN(3) == 0)
		started++
		if err := child.negotiate(); err != nil {
			t.Fatalf("negotiate with child %d: %v", started, err)
		}
		var timer *time.Timer
		if rng.IntN(4) != 0 {
			delay := time.Duration(rng.IntN(4000)) * time.Microsecond
			timer = time.AfterFunc(delay, func() { child.killed.Store(true); child.cmd.Process.Kill() })
		}
		for i := 0; i < 12; i++ {
			var req crashRequest
			switch {
			case len(queue) > 0:
				req = queue[0]
			case len(sent) > 0 && rng.IntN(4) == 0:
				req = sent[rng.IntN(len(sent))]
			default:
				req = crashRequest{id: providertest.NewRequestID(), args: fmt.Sprintf(`{"symbol":"S%d","price":%d}`, len(sent), 1+rng.IntN(500))}
				sent = append(sent, req)
				queue = append(queue, req)
			}
			if !crashExecute(t, child, req, acked) {
				if child.killed.Load() {
					midCall++
				} else {
					inTx++
				}
				break
			}
			if len(queue) > 0 && queue[0] == req {
				queue = queue[1:]
			}
		}
		if timer != nil {
			timer.Stop()
		}
		if child.stop(rng.IntN(8) != 0) {
			kills++
		}
	}
	final := startChild(t, path, false)
	if err := final.negotiate(); err != nil {
		t.Fatal(err)
	}
	for _, req := range sent {
		if !crashExecute(t, final, req, acked) {
			t.Fatalf("final child failed on %s", req.id)
		}
	}
	final.stop(false)
	verifyCrashDB(t, path, sent, acked)
	t.Logf("kill points: %d SIGKILLs over %d child processes (%d inside the handler's open transaction, %d at a random delay during a call, the rest between calls); %d writes, all acknowledged and served again unchanged",
		kills, started, inTx, midCall, len(sent))
}

// crashExecute sends one write and records or compares its result. It
// returns false when the child died before answering.
func crashExecute(t *testing.T, child *crashChild, req crashRequest, acked map[string]string) bool {
	t.Helper()
	b := protocol.Bundle{
		protocol.KeyProtocolVersion: protocol.Int(2), protocol.KeySessionToken: protocol.String(child.token),
		protocol.KeyRequestID: protocol.String(req.id), protocol.KeyDeadlineAtMs: protocol.Long(time.Now().Add(time.Minute).UnixMilli()),
		protocol.KeyToolName: protocol.String("create_alert"), protocol.KeyArgs: protocol.String(req.args),
	}
	resp, err := child.call(protocol.MethodExecuteTool, b)
	if err != nil {
		return false
	}
	status, _, _ := resp.String(protocol.KeyStatus)
	if status != protocol.StatusSuccess {
		t.Fatalf("write %s answered %v", req.id, resp)
	}
	d, _, _ := resp.String(protocol.KeyData)
	if prev, ok := acked[req.id]; ok && prev != d {
		t.Fatalf("request %s was acknowledged as %s and later served as %s", req.id, prev, d)
	}
	acked[req.id] = d
	return true
}

// verifyCrashDB proves from the database itself that each request made its
// effect exactly once and that the stored alert is the acknowledged one.
func verifyCrashDB(t *testing.T, path string, sent []crashRequest, acked map[string]string) {
	t.Helper()
	st, err := sqlitestore.Open(path, sqlitestore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	db := st.DB()
	var dup int
	if err := db.QueryRow(`SELECT COUNT(*) FROM (SELECT request_id FROM alerts GROUP BY request_id HAVING COUNT(*) > 1)`).Scan(&dup); err != nil || dup != 0 {
		t.Fatalf("%d requests inserted more than one alert (%v)", dup, err)
	}
	var maxN sql.NullInt64
	if err := db.QueryRow(`SELECT MAX(n) FROM effects`).Scan(&maxN); err != nil || maxN.Int64 != 1 {
		t.Fatalf("an effect counter reached %d (%v), want 1", maxN.Int64, err)
	}
	var alerts, effects int
	db.QueryRow(`SELECT COUNT(*) FROM alerts`).Scan(&alerts)
	db.QueryRow(`SELECT COUNT(*) FROM effects`).Scan(&effects)
	if alerts != len(sent) || effects != len(sent) || len(acked) != len(sent) {
		t.Fatalf("alerts %d, effects %d, acknowledged %d, sent %d: want all equal", alerts, effects, len(acked), len(sent))
	}
	for _, req := range sent {
		var id int64
		if err := db.QueryRow(`SELECT id FROM alerts WHERE request_id = ?`, req.id).Scan(&id); err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf(`{"kind":"inline","value":{"alert_id":"a-%d"}}`, id); acked[req.id] != want {
			t.Fatalf("request %s acknowledged %s, database holds %s", req.id, acked[req.id], want)
		}
	}
}
