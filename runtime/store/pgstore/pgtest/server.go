package pgtest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Server is a PostgreSQL server of its own that a fault test starts,
// restarts, stops and promotes: a restart of the shared test server would
// disturb every other test that runs at the same time. It listens on
// 127.0.0.1 only, with trust authentication, and is stopped and deleted
// when the test ends. Its binaries are those that scripts/postgres.sh
// installs; as root it runs as the postgres system user, which
// PostgreSQL requires.
type Server struct {
	t    testing.TB
	bin  string
	Dir  string // holds the data directory and the log
	Data string
	Port int
}

// settings are the test servers' postgresql.conf additions. fsync off
// costs nothing here: the faults are process faults (the server's own
// shutdown and crash), after which the kernel still holds every write,
// and it keeps the set-up fast on a loaded machine.
const settings = `listen_addresses = '127.0.0.1'
unix_socket_directories = ''
max_connections = 200
fsync = off
wal_level = replica
max_wal_senders = 4
`

// StartServer initialises and starts a new server with the extra
// postgresql.conf lines conf. It skips t when the shared test database
// is not configured (TestPostgresAvailable reports that) and fails it
// when the PostgreSQL binaries cannot be found.
func StartServer(t testing.TB, conf ...string) *Server {
	t.Helper()
	DSN(t)
	s := newServer(t)
	if out, err := s.run("initdb", "-D", s.Data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync"); err != nil {
		t.Fatalf("initdb: %v\n%s", err, out)
	}
	s.configure(settings + strings.Join(conf, "\n") + "\n")
	hba := "host all all 127.0.0.1/32 trust\nhost replication all 127.0.0.1/32 trust\n"
	if err := s.writeFile(filepath.Join(s.Data, "pg_hba.conf"), hba, false); err != nil {
		t.Fatal(err)
	}
	s.Start()
	return s
}

// newServer makes the directory of a server that the server's owner can
// enter and picks its port.
func newServer(t testing.TB) *Server {
	t.Helper()
	bin, err := binDir()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "cetp-pg-")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{t: t, bin: bin, Dir: dir, Data: filepath.Join(dir, "data"), Port: freePort(t)}
	if os.Getuid() == 0 {
		if out, err := exec.Command("chown", "postgres:", dir).CombinedOutput(); err != nil {
			t.Fatalf("chown %s: %v\n%s", dir, err, out)
		}
	}
	t.Cleanup(func() {
		s.run("pg_ctl", "stop", "-D", s.Data, "-m", "immediate", "-w")
		os.RemoveAll(dir)
	})
	return s
}

// configure appends lines to postgresql.conf (later settings win),
// always with the server's own port.
func (s *Server) configure(lines string) {
	s.t.Helper()
	lines += fmt.Sprintf("port = %d\n", s.Port)
	if err := s.writeFile(filepath.Join(s.Data, "postgresql.conf"), lines, true); err != nil {
		s.t.Fatal(err)
	}
}

// writeFile writes (or appends to) a file of the data directory as the
// server's owner.
func (s *Server) writeFile(path, text string, appendTo bool) error {
	flag := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if appendTo {
		flag = os.O_WRONLY | os.O_APPEND
	}
	f, err := os.OpenFile(path, flag, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if os.Getuid() == 0 {
		uid, gid := postgresIDs()
		return os.Chown(path, uid, gid)
	}
	return nil
}

// DSN returns the URL of database db on the server.
func (s *Server) DSN(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", s.Port, db)
}

// Start starts the server and waits until it accepts connections.
func (s *Server) Start() {
	s.t.Helper()
	if out, err := s.run("pg_ctl", "start", "-D", s.Data, "-l", filepath.Join(s.Dir, "server.log"), "-w", "-t", "60"); err != nil {
		s.t.Fatalf("pg_ctl start: %v\n%s\n%s", err, out, s.Log())
	}
}

// Restart runs pg_ctl restart in mode fast (sessions terminated,
// transactions rolled back, a clean shutdown) or immediate (the server
// quits without a shutdown checkpoint and recovers from its WAL at start).
func (s *Server) Restart(mode string) {
	s.t.Helper()
	if out, err := s.run("pg_ctl", "restart", "-D", s.Data, "-m", mode, "-w", "-t", "60",
		"-l", filepath.Join(s.Dir, "server.log")); err != nil {
		s.t.Fatalf("pg_ctl restart -m %s: %v\n%s\n%s", mode, err, out, s.Log())
	}
}

// Stop stops the server in mode (fast or immediate).
func (s *Server) Stop(mode string) {
	s.t.Helper()
	if out, err := s.run("pg_ctl", "stop", "-D", s.Data, "-m", mode, "-w"); err != nil {
		s.t.Fatalf("pg_ctl stop -m %s: %v\n%s", mode, err, out)
	}
}

// Log returns the server's log.
func (s *Server) Log() string {
	b, _ := os.ReadFile(filepath.Join(s.Dir, "server.log"))
	return string(b)
}

// run runs one of the PostgreSQL binaries as the server's owner.
func (s *Server) run(name string, args ...string) ([]byte, error) {
	path := filepath.Join(s.bin, name)
	var cmd *exec.Cmd
	if os.Getuid() == 0 {
		cmd = exec.Command("runuser", append([]string{"-u", "postgres", "--", path}, args...)...)
	} else {
		cmd = exec.Command(path, args...)
	}
	cmd.Dir = s.Dir
	return cmd.CombinedOutput()
}

// binDir finds the PostgreSQL binaries as scripts/postgres.sh does: the
// newest /usr/lib/postgresql/*/bin, else the directory of initdb on PATH.
func binDir() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return versionLess(dirs[i], dirs[j]) })
	if len(dirs) > 0 {
		return dirs[len(dirs)-1], nil
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Dir(r), nil
		}
	}
	return "", fmt.Errorf("no PostgreSQL binaries (initdb) found; run scripts/postgres.sh start, which installs them")
}

// versionLess orders /usr/lib/postgresql/N/bin by the number N.
func versionLess(a, b string) bool {
	va, vb := filepath.Base(filepath.Dir(a)), filepath.Base(filepath.Dir(b))
	if len(va) != len(vb) {
		return len(va) < len(vb)
	}
	return va < vb
}

// freePort returns a loopback port that was free a moment ago.
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
