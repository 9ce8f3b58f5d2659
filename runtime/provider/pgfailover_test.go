package provider_test

import (
	"database/sql"
	"fmt"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/store/pgstore/pgtest"
)

// TestPostgresFailover runs two Provider processes on a primary with a
// synchronous streaming standby, both on loopback, through one multi-host
// DSN (target_session_attrs=read-write). While the processes serve a
// stream of synchronous writes and operations, the primary crashes
// (pg_ctl stop -m immediate) and the standby is promoted. It proves that
// the processes follow the new primary (every request ends with its
// result, retried as §5 allows), and that every result acknowledged,
// before the promotion or after, is on the new primary, once, and served
// unchanged by a replay.
func TestPostgresFailover(t *testing.T) {
	faultChildMain()
	primary := pgtest.StartServer(t, pgtest.SyncPrimary)
	standby := primary.StartStandby()
	dsn := fmt.Sprintf("postgres://postgres@127.0.0.1:%d,127.0.0.1:%d/postgres?sslmode=disable&target_session_attrs=read-write&connect_timeout=5",
		primary.Port, standby.Port)
	faultDB(t, primary, dsn)
	requireSyncStandby(t, primary)
	children := []*faultChild{startFaultChild(t, dsn), startFaultChild(t, dsn)}
	for _, c := range children {
		c.send(t, "stream 4s 6")
	}
	time.Sleep(1500 * time.Millisecond)
	primary.Stop("immediate")
	standby.Promote()
	acked, tools := map[string]string{}, map[string]string{}
	for _, c := range children {
		c.acked(t, acked, tools)
	}
	var retries int64
	for _, c := range children {
		_, _, r := c.stats(t)
		retries += r
	}
	if retries == 0 {
		t.Fatal("no request met a retryable error: the failover missed the stream")
	}
	pgVerify(t, pgtest.OpenDSN(t, standby.DSN("postgres")), acked)
	replayAll(t, children[0], acked, tools)
	t.Logf("%d requests acknowledged across the failover; %d retryable errors", len(acked), retries)
}

// requireSyncStandby fails t unless the primary's standby streams to it
// as a synchronous standby.
func requireSyncStandby(t *testing.T, primary *pgtest.Server) {
	t.Helper()
	db, err := sql.Open("pgx", primary.DSN("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var state string
	for end := time.Now().Add(faultPatience); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		err = db.QueryRow(`SELECT sync_state FROM pg_stat_replication`).Scan(&state)
		if err == nil && state == "sync" {
			return
		}
	}
	t.Fatalf("the standby is not synchronous: %q, %v", state, err)
}
