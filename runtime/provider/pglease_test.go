package provider_test

import (
	"encoding/json"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/provider/providertest"
	"github.com/cetpgen/cetpgen/runtime/store/pgstore/pgtest"
)

// TestPostgresLeaseTakeover stops (SIGSTOP) the Provider process that runs
// an operation, inside the handler's open transaction, and proves that a
// second process of the Provider takes the operation over once the lease
// lapses and completes it; that get_operation on the second process never
// reports the operation running for longer than the lease while nobody
// runs it; and that the first process, resumed (SIGCONT), cannot commit:
// its handler's transaction fails, and the database holds the one alert
// and one effect of the second process's run, whose result both
// processes serve.
func TestPostgresLeaseTakeover(t *testing.T) {
	faultChildMain()
	dsn := pgSchema(t)
	owner := startFaultChild(t, dsn, faultSlowEnv+"=3s")
	other := startFaultChild(t, dsn)
	id := providertest.NewRequestID()
	op := owner.ask(t, "async "+id+" SLOW")
	awaitState(t, other, id, op, "running")
	awaitProgress(t, other, id, op)
	if err := owner.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	stopped := time.Now()
	defer owner.cmd.Process.Signal(syscall.SIGCONT)
	var data string
	for end := time.Now().Add(faultPatience); ; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("the operation was not completed by the other process")
		}
		d := other.ask(t, "get "+id+" "+op)
		state := stateOf(t, d)
		if state == "running" && time.Since(stopped) > faultLease+1500*time.Millisecond && !ranByOther(t, other) {
			t.Fatalf("get_operation reported running %s after its owner stopped, nobody running it", time.Since(stopped))
		}
		if state == "succeeded" {
			data = d
			break
		}
	}
	if took := time.Since(stopped); took < faultLease/2 {
		t.Fatalf("the other process completed the operation %s after its owner stopped, before the lease (%s) lapsed", took, faultLease)
	}
	if err := owner.cmd.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	awaitOwnerFailed(t, owner)
	if d := owner.ask(t, "get "+id+" "+op); d != data {
		t.Fatalf("the resumed owner serves %s, the other process %s", d, data)
	}
	var res struct {
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal([]byte(data), &res); err != nil {
		t.Fatal(err)
	}
	pgVerify(t, pgtest.OpenDSN(t, dsn), map[string]string{id: string(res.Result)})
}

// ranByOther reports whether the other process's handler has started: it
// then runs the operation, and running is the truth.
func ranByOther(t *testing.T, c *faultChild) bool {
	runs, _, _ := c.stats(t)
	return runs > 0
}

// awaitOwnerFailed waits until the resumed owner's handler has tried its
// second statement and failed.
func awaitOwnerFailed(t *testing.T, owner *faultChild) {
	t.Helper()
	for end := time.Now().Add(faultPatience); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if runs, failed, _ := owner.stats(t); runs == 1 && failed == 1 {
			return
		}
	}
	runs, failed, _ := owner.stats(t)
	t.Fatalf("the resumed owner: %d handler runs, %d failed; want its one run failed", runs, failed)
}

// awaitState polls get_operation through c until the operation is in
// state want.
func awaitState(t *testing.T, c *faultChild, id, op, want string) {
	t.Helper()
	for end := time.Now().Add(faultPatience); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if stateOf(t, c.ask(t, "get "+id+" "+op)) == want {
			return
		}
	}
	t.Fatalf("operation %s never %s", op, want)
}

// awaitProgress polls get_operation through c until the operation
// reports the handler's progress: its handler holds the transaction.
func awaitProgress(t *testing.T, c *faultChild, id, op string) {
	t.Helper()
	for end := time.Now().Add(faultPatience); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if strings.Contains(c.ask(t, "get "+id+" "+op), `"holding"`) {
			return
		}
	}
	t.Fatalf("operation %s never reported its progress", op)
}

func stateOf(t *testing.T, data string) string {
	t.Helper()
	var s struct {
		State string `json:"state"`
	}
	if err := json.Unmarshal([]byte(data), &s); err != nil {
		t.Fatalf("get_operation data %q: %v", data, err)
	}
	return s.State
}
