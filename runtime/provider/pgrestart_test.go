package provider_test

import (
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/store/pgstore/pgtest"
)

// faultDB returns the DSN of a database on a server of its own, with the
// business tables created, for the tests that restart or fail the server.
func faultDB(t *testing.T, s *pgtest.Server, dsn string) string {
	t.Helper()
	st := pgtest.OpenDSN(t, dsn)
	if _, err := st.DB().Exec(pgDDL); err != nil {
		t.Fatal(err)
	}
	st.Close()
	return dsn
}

// TestPostgresServerRestart restarts the PostgreSQL server, once with
// pg_ctl restart -m fast and once with -m immediate, while two Provider
// processes serve a stream of synchronous writes and operations, every
// request retried as §5 allows until it ends. It proves that every
// request ended with its result (none with a non-retryable error, no
// operation reported running for longer than three leases, none left
// unfinished), that the database holds exactly one alert and one effect
// per request, each the one its result names, and that a replay of
// every request through the other process serves the same result.
func TestPostgresServerRestart(t *testing.T) {
	faultChildMain()
	srv := pgtest.StartServer(t)
	dsn := faultDB(t, srv, srv.DSN("postgres"))
	children := []*faultChild{startFaultChild(t, dsn), startFaultChild(t, dsn)}
	for _, c := range children {
		c.send(t, "stream 4s 6")
	}
	time.Sleep(time.Second)
	srv.Restart("fast")
	time.Sleep(time.Second)
	srv.Restart("immediate")
	acked, tools := map[string]string{}, map[string]string{}
	for _, c := range children {
		c.acked(t, acked, tools)
	}
	if len(acked) == 0 {
		t.Fatal("no request was acknowledged")
	}
	pgVerify(t, pgtest.OpenDSN(t, dsn), acked)
	var retries, failed int64
	for _, c := range children {
		_, f, r := c.stats(t)
		retries, failed = retries+r, failed+f
	}
	if retries == 0 {
		t.Fatal("no request met a retryable error: the restarts missed the stream")
	}
	replayAll(t, children[1], acked, tools)
	t.Logf("%d requests acknowledged across two restarts; %d retryable errors, %d handler runs cut in their transaction",
		len(acked), retries, failed)
}

// replayAll sends every acknowledged request again, to its tool, through
// c and fails t unless each is answered with its acknowledged result.
func replayAll(t *testing.T, c *faultChild, acked, tools map[string]string) {
	t.Helper()
	for id, data := range acked {
		if answer := c.ask(t, "replay "+id+" "+tools[id]); answer != data {
			t.Fatalf("request %s (%s) replayed as %s, acknowledged as %s", id, tools[id], answer, data)
		}
	}
}
