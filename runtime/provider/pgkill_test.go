package provider_test

import (
	"bufio"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider/providertest"
	"github.com/cetpgen/cetpgen/runtime/store/pgstore/pgtest"
)

// startFrameChild starts a child Provider in mode "frames" and negotiates
// with it.
func startFrameChild(t *testing.T, test, dsn string, selfKill bool) *crashChild {
	t.Helper()
	cmd := pgCommand(test, "frames", dsn, pgChildSelfKill+"="+map[bool]string{true: "1", false: "0"}[selfKill])
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
	c := &crashChild{cmd: cmd, in: in, out: bufio.NewReader(out)}
	if err := c.negotiate(); err != nil {
		t.Fatalf("negotiate with a child: %v", err)
	}
	return c
}

// ledger is the shared record of the kill test: every request sent, the
// unacknowledged ones, and the acknowledged result of each.
type ledger struct {
	mu      sync.Mutex
	rng     *rand.Rand
	sent    []crashRequest
	pending map[string]crashRequest
	acked   map[string]string
}

func newLedger() *ledger {
	return &ledger{rng: rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 9)),
		pending: map[string]crashRequest{}, acked: map[string]string{}}
}

// next returns an unacknowledged request to retry, a sent one to replay,
// or a new one, a third of the time each (as far as there are any).
func (l *ledger) next() crashRequest {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch l.rng.IntN(3) {
	case 0:
		for _, req := range l.pending {
			return req
		}
	case 1:
		if len(l.sent) > 0 {
			return l.sent[l.rng.IntN(len(l.sent))]
		}
	}
	req := crashRequest{id: providertest.NewRequestID(), args: fmt.Sprintf(`{"symbol":"S%d","price":%d}`, len(l.sent), 1+l.rng.IntN(500))}
	l.sent = append(l.sent, req)
	l.pending[req.id] = req
	return req
}

// ack records the result of req, or says how it differs from the result
// acknowledged before.
func (l *ledger) ack(req crashRequest, data string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if prev, ok := l.acked[req.id]; ok && prev != data {
		return fmt.Errorf("request %s was acknowledged as %s and later served as %s", req.id, prev, data)
	}
	l.acked[req.id] = data
	delete(l.pending, req.id)
	return nil
}

// execute sends req to child. died is true when the child gave no answer.
func (l *ledger) execute(child *crashChild, req crashRequest) (died bool, err error) {
	b := protocol.Bundle{
		protocol.KeyProtocolVersion: protocol.Int(2), protocol.KeySessionToken: protocol.String(child.token),
		protocol.KeyRequestID: protocol.String(req.id), protocol.KeyDeadlineAtMs: protocol.Long(time.Now().Add(time.Minute).UnixMilli()),
		protocol.KeyToolName: protocol.String("create_alert"), protocol.KeyArgs: protocol.String(req.args),
	}
	resp, err := child.call(protocol.MethodExecuteTool, b)
	if err != nil {
		return true, nil
	}
	data, err := successData(resp)
	if err != nil {
		return false, fmt.Errorf("write %s: %w", req.id, err)
	}
	return false, l.ack(req, data)
}

// serveSteady keeps the steady child busy until stop is closed.
func serveSteady(l *ledger, child *crashChild, stop <-chan struct{}) error {
	for {
		select {
		case <-stop:
			return nil
		default:
		}
		died, err := l.execute(child, l.next())
		if err != nil {
			return err
		}
		if died {
			return fmt.Errorf("the steady child died")
		}
		time.Sleep(3 * time.Millisecond)
	}
}

// TestPostgresKillOneProcess runs two Provider processes on one database:
// one steady, the other killed with SIGKILL at random points (from outside
// at a random delay, from inside the handler between its two statements
// in the open transaction, or between calls) and restarted, while both
// serve new writes, retries of unacknowledged ones and replays, at times of
// the same request ID at once. It proves that every acknowledged result is
// served again unchanged by the steady process and that the database holds
// each request's effect exactly once.
func TestPostgresKillOneProcess(t *testing.T) {
	pgChildMain()
	dsn := pgSchema(t)
	l := newLedger()
	steady := startFrameChild(t, t.Name(), dsn, false)
	stop, steadyErr := make(chan struct{}), make(chan error, 1)
	go func() { steadyErr <- serveSteady(l, steady, stop) }()
	kills, started, midCall := killLoop(t, l, dsn, envInt(pgKillsEnv, defaultKillRun))
	close(stop)
	if err := <-steadyErr; err != nil {
		t.Fatal(err)
	}
	for _, req := range l.sent {
		if died, err := l.execute(steady, req); died || err != nil {
			t.Fatalf("steady child on %s: died %v, %v", req.id, died, err)
		}
	}
	steady.stop(false)
	pgVerify(t, pgtest.OpenDSN(t, dsn), l.acked)
	t.Logf("%d SIGKILLs over %d processes (%d during a call, at a random delay or inside the handler's transaction) while the steady one served; %d writes, all acknowledged and served again unchanged",
		kills, started, midCall, len(l.sent))
}

// killLoop starts, uses and kills the second child until it died by
// SIGKILL want times, and returns the kills, the processes started and
// the kills that hit a call in flight.
func killLoop(t *testing.T, l *ledger, dsn string, want int) (kills, started, midCall int) {
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 11))
	for kills < want {
		child := startFrameChild(t, t.Name(), dsn, rng.IntN(3) == 0)
		started++
		var timer *time.Timer
		if rng.IntN(4) != 0 {
			timer = time.AfterFunc(time.Duration(rng.IntN(4000))*time.Microsecond, func() { child.cmd.Process.Kill() })
		}
		if useChild(t, l, child) {
			midCall++
		}
		if timer != nil {
			timer.Stop()
		}
		if child.stop(rng.IntN(8) != 0) {
			kills++
		}
	}
	return kills, started, midCall
}

// useChild sends up to 12 calls to child and reports whether it died
// during one.
func useChild(t *testing.T, l *ledger, child *crashChild) bool {
	t.Helper()
	for range 12 {
		died, err := l.execute(child, l.next())
		if err != nil {
			t.Fatal(err)
		}
		if died {
			return true
		}
	}
	return false
}

// TestPostgresRestart proves that a Provider process started against the
// database of one that was killed serves the stored results, successes and
// terminal business errors alike, unchanged and without running the
// handler again, and that the stored records (state, outcome, times) are
// unchanged by the replay.
func TestPostgresRestart(t *testing.T) {
	pgChildMain()
	dsn := pgSchema(t)
	first := startFrameChild(t, t.Name(), dsn, false)
	reqs, answers := restartWrites(t, first)
	st := pgtest.OpenDSN(t, dsn)
	before := records(t, st.DB())
	first.stop(true)
	second := startFrameChild(t, t.Name(), dsn, false)
	for _, req := range reqs {
		if got := frameAnswer(t, second, req); got != answers[req.id] {
			t.Fatalf("request %s answered %s before the restart, %s after", req.id, answers[req.id], got)
		}
	}
	second.stop(false)
	if after := records(t, st.DB()); after != before {
		t.Fatalf("records changed by the restart:\n%s\n---\n%s", before, after)
	}
	var effects int
	if err := st.DB().QueryRow(`SELECT COUNT(*) FROM effects WHERE n = 1`).Scan(&effects); err != nil || effects != 15 {
		t.Fatalf("%d single effects (%v), want 15", effects, err)
	}
}

// restartWrites sends 20 writes to child, every fourth a CONFLICT, and
// returns them with their answers.
func restartWrites(t *testing.T, child *crashChild) ([]crashRequest, map[string]string) {
	t.Helper()
	var reqs []crashRequest
	answers := map[string]string{}
	for i := range 20 {
		sym := fmt.Sprintf("S%d", i)
		if i%4 == 0 {
			sym = "CONFLICT"
		}
		req := crashRequest{id: providertest.NewRequestID(), args: fmt.Sprintf(`{"symbol":%q,"price":1}`, sym)}
		reqs = append(reqs, req)
		answers[req.id] = frameAnswer(t, child, req)
	}
	return reqs, answers
}

// frameAnswer returns the status, error code, error message and data of
// the answer to req.
func frameAnswer(t *testing.T, child *crashChild, req crashRequest) string {
	t.Helper()
	b := protocol.Bundle{
		protocol.KeyProtocolVersion: protocol.Int(2), protocol.KeySessionToken: protocol.String(child.token),
		protocol.KeyRequestID: protocol.String(req.id), protocol.KeyDeadlineAtMs: protocol.Long(time.Now().Add(time.Minute).UnixMilli()),
		protocol.KeyToolName: protocol.String("create_alert"), protocol.KeyArgs: protocol.String(req.args),
	}
	resp, err := child.call(protocol.MethodExecuteTool, b)
	if err != nil {
		t.Fatal(err)
	}
	var parts []string
	for _, k := range []string{protocol.KeyStatus, protocol.KeyErrorCode, protocol.KeyErrorMessage, protocol.KeyData} {
		v, _, _ := resp.String(k)
		parts = append(parts, v)
	}
	return fmt.Sprint(parts)
}

// records dumps the deduplication table in a stable order.
func records(t *testing.T, db *sql.DB) string {
	t.Helper()
	var dump string
	err := db.QueryRow(`SELECT COALESCE(string_agg(concat_ws(' ', request_id, tool, encode(args_digest, 'hex'), state,
 encode(outcome, 'escape'), created_ms, expires_ms), E'\n' ORDER BY request_id), '') FROM cetp_dedup`).Scan(&dump)
	if err != nil || strings.Count(dump, "\n") != 19 {
		t.Fatalf("records: %v\n%s", err, dump)
	}
	return dump
}
