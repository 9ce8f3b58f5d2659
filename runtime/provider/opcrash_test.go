package provider_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider/providertest"
)

// opCrashKills is the number of SIGKILL points of TestOperationCrashSafety.
const opCrashKills = 100

// TestOperationCrashSafety is TestCrashSafety for background operations:
// every write is accepted as an operation, and child Providers are killed
// with SIGKILL at random points (inside the handler's open transaction,
// at a random delay, between calls) while the client retries and polls
// with the same request IDs. Each new child recovers the unfinished
// operations. At the end every operation has succeeded exactly once, and
// every result the client saw is the one stored.
func TestOperationCrashSafety(t *testing.T) {
	path := filepath.Join(t.TempDir(), "opcrash.db")
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 11))
	acked := map[string]string{} // request ID -> the data of its result
	ops := map[string]string{}   // request ID -> operation ID
	var sent []crashRequest
	kills, started := 0, 0
	for kills < opCrashKills {
		child := startChild(t, path, rng.IntN(3) == 0, crashAsyncEnv+"=1")
		started++
		if err := child.negotiate(protocol.CapAsyncOperations); err != nil {
			// A recovered operation's handler killed the child first.
			if !child.stop(false) {
				t.Fatalf("negotiate with child %d: %v", started, err)
			}
			kills++
			continue
		}
		if rng.IntN(4) != 0 {
			delay := time.Duration(rng.IntN(6000)) * time.Microsecond
			timer := time.AfterFunc(delay, func() { child.killed.Store(true); child.cmd.Process.Kill() })
			defer timer.Stop()
		}
		for range 6 {
			req := crashRequest{id: providertest.NewRequestID(), args: fmt.Sprintf(`{"symbol":"S%d","price":%d}`, len(sent), 1+rng.IntN(500))}
			if len(sent) > 0 && rng.IntN(3) == 0 {
				req = sent[rng.IntN(len(sent))]
			} else {
				sent = append(sent, req)
			}
			if !opStep(t, child, req, ops, acked) {
				break
			}
		}
		if child.stop(rng.IntN(8) != 0) {
			kills++
		}
	}
	final := startChild(t, path, false, crashAsyncEnv+"=1")
	if err := final.negotiate(protocol.CapAsyncOperations); err != nil {
		t.Fatal(err)
	}
	for _, req := range sent {
		if !opFinish(t, final, req, ops, acked) {
			t.Fatalf("final child failed on %s", req.id)
		}
	}
	final.stop(false)
	verifyCrashDB(t, path, sent, acked)
	t.Logf("%d SIGKILLs over %d child processes; %d operations, each run once and its result served unchanged", kills, started, len(sent))
}

// opStep starts or retries one operation and polls it a few times. It
// returns false when the child died.
func opStep(t *testing.T, child *crashChild, req crashRequest, ops, acked map[string]string) bool {
	t.Helper()
	if !opExecute(t, child, req, ops, acked) {
		return false
	}
	for range 3 {
		done, alive := opPoll(t, child, req, ops, acked)
		if !alive || done {
			return alive
		}
		time.Sleep(time.Millisecond)
	}
	return true
}

// opFinish polls an operation until it has succeeded.
func opFinish(t *testing.T, child *crashChild, req crashRequest, ops, acked map[string]string) bool {
	t.Helper()
	if !opExecute(t, child, req, ops, acked) {
		return false
	}
	for range 2000 {
		done, alive := opPoll(t, child, req, ops, acked)
		if !alive || done {
			return alive
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("operation of %s never finished", req.id)
	return false
}

// opExecute sends execute_tool: the answer is accepted with the request's
// one operation ID, or the stored success.
func opExecute(t *testing.T, child *crashChild, req crashRequest, ops, acked map[string]string) bool {
	t.Helper()
	resp, err := child.call(protocol.MethodExecuteTool, opEnvelope(child, req.id, protocol.Bundle{
		protocol.KeyToolName: protocol.String("create_alert"), protocol.KeyArgs: protocol.String(req.args)}))
	if err != nil {
		return false
	}
	status, _, _ := resp.String(protocol.KeyStatus)
	d, _, _ := resp.String(protocol.KeyData)
	switch status {
	case protocol.StatusAccepted:
		var a struct {
			OperationID string `json:"operation_id"`
		}
		json.Unmarshal([]byte(d), &a)
		if prev, ok := ops[req.id]; ok && prev != a.OperationID {
			t.Fatalf("request %s is operation %s and later %s", req.id, prev, a.OperationID)
		}
		ops[req.id] = a.OperationID
	case protocol.StatusSuccess:
		ackResult(t, req.id, d, acked)
	default:
		t.Fatalf("write %s answered %v", req.id, resp)
	}
	return true
}

// opPoll queries the operation once; done is true when it has succeeded.
func opPoll(t *testing.T, child *crashChild, req crashRequest, ops, acked map[string]string) (done, alive bool) {
	t.Helper()
	op, ok := ops[req.id]
	if !ok {
		return acked[req.id] != "", true
	}
	resp, err := child.call(protocol.MethodGetOperation, opEnvelope(child, req.id, protocol.Bundle{
		protocol.KeyOperationID: protocol.String(op)}))
	if err != nil {
		return false, false
	}
	d, _, _ := resp.String(protocol.KeyData)
	var st struct {
		State  string          `json:"state"`
		Result json.RawMessage `json:"result"`
	}
	if json.Unmarshal([]byte(d), &st) != nil || st.State == "failed" || st.State == "cancelled" {
		t.Fatalf("operation %s: %v", op, resp)
	}
	if st.State == "succeeded" {
		ackResult(t, req.id, string(st.Result), acked)
	}
	return st.State == "succeeded", true
}

// ackResult records a result seen for id, or checks it equals the one
// seen before.
func ackResult(t *testing.T, id, data string, acked map[string]string) {
	t.Helper()
	if prev, ok := acked[id]; ok && prev != data {
		t.Fatalf("request %s was answered %s and later %s", id, prev, data)
	}
	acked[id] = data
}

func opEnvelope(child *crashChild, id string, extra protocol.Bundle) protocol.Bundle {
	b := protocol.Bundle{
		protocol.KeyProtocolVersion: protocol.Int(2), protocol.KeySessionToken: protocol.String(child.token),
		protocol.KeyRequestID: protocol.String(id), protocol.KeyDeadlineAtMs: protocol.Long(time.Now().Add(time.Minute).UnixMilli()),
	}
	for k, v := range extra {
		b[k] = v
	}
	return b
}
