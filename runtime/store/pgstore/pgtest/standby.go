package pgtest

import (
	"fmt"
	"os/user"
	"strconv"
)

// standbyName is the application name under which a standby connects,
// the name that the primary's synchronous_standby_names lists.
const standbyName = "cetp_standby"

// SyncPrimary is the postgresql.conf line that makes a primary wait, at
// every commit, until its standby has flushed the commit's WAL: an
// acknowledged commit survives the standby's promotion.
const SyncPrimary = "synchronous_standby_names = '" + standbyName + "'\nsynchronous_commit = on"

// StartStandby copies the running server s with pg_basebackup and starts
// the copy as its streaming standby on a port of its own, connected under
// the name that SyncPrimary names.
func (s *Server) StartStandby() *Server {
	s.t.Helper()
	st := newServer(s.t)
	conninfo := fmt.Sprintf("host=127.0.0.1 port=%d user=postgres application_name=%s", s.Port, standbyName)
	if out, err := st.run("pg_basebackup", "-d", conninfo, "-D", st.Data, "-X", "stream", "-R", "--no-sync"); err != nil {
		s.t.Fatalf("pg_basebackup: %v\n%s", err, out)
	}
	st.configure(fmt.Sprintf("primary_conninfo = '%s'\nsynchronous_standby_names = ''\n", conninfo))
	st.Start()
	return st
}

// Promote promotes a standby to primary and waits until it accepts
// writes.
func (s *Server) Promote() {
	s.t.Helper()
	if out, err := s.run("pg_ctl", "promote", "-D", s.Data, "-w", "-t", "60"); err != nil {
		s.t.Fatalf("pg_ctl promote: %v\n%s", err, out)
	}
}

// postgresIDs returns the uid and gid of the postgres system user.
func postgresIDs() (int, int) {
	u, err := user.Lookup("postgres")
	if err != nil {
		return -1, -1
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return uid, gid
}
