package provider_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/provider/providertest"
	"github.com/cetpgen/cetpgen/runtime/store/pgstore"
	"github.com/cetpgen/cetpgen/runtime/store/pgstore/pgtest"
)

// The multi-process PostgreSQL tests re-execute the test binary as child
// Providers on one database. pgChildEnv selects the child's mode: "lines"
// (commands on stdin, one answer line each, calls made in-process with
// many goroutines) or "frames" (the crash test's framed transport, one
// call at a time); pgChildDSN names the database.
const (
	pgChildEnv      = "CETP_PG_CHILD"
	pgChildDSN      = "CETP_PG_CHILD_DSN"
	pgChildDelay    = "CETP_PG_CHILD_DELAY"
	pgChildSelfKill = "CETP_PG_CHILD_SELF_KILL"
	pgKillsEnv      = "CETP_PG_KILLS"
)

// pgChildMain runs the child's mode and exits when the process is a
// child; it returns at once in the test process itself.
func pgChildMain() {
	mode := os.Getenv(pgChildEnv)
	if mode == "" {
		return
	}
	err := runPGChild(mode)
	if err != nil {
		fmt.Fprintln(os.Stderr, "postgres child:", err)
		os.Exit(3)
	}
	os.Exit(0)
}

func runPGChild(mode string) error {
	st, err := pgstore.Open(context.Background(), os.Getenv(pgChildDSN), pgstore.Options{MaxConns: 32})
	if err != nil {
		return err
	}
	defer st.Close()
	var runs atomic.Int64
	delay, _ := time.ParseDuration(os.Getenv(pgChildDelay))
	p, err := pgProvider(st, pgHandler(&runs, os.Getenv(pgChildSelfKill) == "1", delay), 128)
	if err != nil {
		return err
	}
	if mode == "frames" {
		return serveFrames(p, os.Stdin, os.Stdout)
	}
	c := &providertest.Client{P: p, Caller: callerA}
	if _, err := c.Negotiate(context.Background()); err != nil {
		return err
	}
	return serveLines(c, &runs)
}

// serveFrames answers framed calls from in on out until EOF.
func serveFrames(p *provider.Provider, in io.Reader, out io.Writer) error {
	r, w := bufio.NewReader(in), bufio.NewWriter(out)
	caller := provider.Caller{UID: os.Getuid()} // the peer of the pipe is the parent
	for {
		req, err := readFrame(r)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		method, _, _ := req.String(methodKey)
		delete(req, methodKey)
		if err := writeFrame(w, p.Call(context.Background(), caller, method, req)); err != nil {
			return err
		}
		if err := w.Flush(); err != nil {
			return err
		}
	}
}

// serveLines prints "ready", then answers each command line with one
// line, and at EOF prints "runs N", the handler runs of the process.
//
//	same ID N   N concurrent calls with request ID; answer: JSON list of data
//	load N C    N calls with new request IDs over C goroutines; answer: ok
func serveLines(c *providertest.Client, runs *atomic.Int64) error {
	fmt.Println("ready")
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		answer, err := lineCommand(c, strings.Fields(sc.Text()))
		if err != nil {
			return err
		}
		fmt.Println(answer)
	}
	fmt.Println("runs", runs.Load())
	return sc.Err()
}

func lineCommand(c *providertest.Client, f []string) (string, error) {
	if len(f) != 3 {
		return "", fmt.Errorf("bad command %q", f)
	}
	n, err := strconv.Atoi(f[2])
	if err != nil {
		return "", err
	}
	switch f[0] {
	case "same":
		return sameCalls(c, f[1], n)
	case "load":
		return loadCalls(c, f[1], n)
	}
	return "", fmt.Errorf("bad command %q", f)
}

func sameCalls(c *providertest.Client, id string, n int) (string, error) {
	results := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = successData(c.Execute(context.Background(), id, "create_alert", alertArgs, ""))
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return "", err
	}
	b, err := json.Marshal(results)
	return string(b), err
}

func loadCalls(c *providertest.Client, count string, workers int) (string, error) {
	n, err := strconv.Atoi(count)
	if err != nil {
		return "", err
	}
	var next atomic.Int64
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(n) && errs[w] == nil {
				_, errs[w] = successData(c.Execute(context.Background(), providertest.NewRequestID(), "create_alert", alertArgs, ""))
			}
		}()
	}
	wg.Wait()
	return "ok", errors.Join(errs...)
}

// pgCommand returns the command of a child in mode on dsn, run through
// the named test.
func pgCommand(test, mode, dsn string, env ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$")
	cmd.Env = append(os.Environ(), append([]string{pgChildEnv + "=" + mode, pgChildDSN + "=" + dsn}, env...)...)
	cmd.Stderr = os.Stderr
	return cmd
}

// lineChild is a child in mode "lines".
type lineChild struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

func startLineChild(t testing.TB, test, dsn string, env ...string) *lineChild {
	t.Helper()
	c := &lineChild{cmd: pgCommand(test, "lines", dsn, env...)}
	in, err := c.cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	c.in, c.out = in, bufio.NewScanner(out)
	c.out.Buffer(nil, 1<<20)
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.cmd.Process.Kill(); c.cmd.Wait() })
	if line, err := c.read(); err != nil || line != "ready" {
		t.Fatalf("child not ready: %q, %v", line, err)
	}
	return c
}

func (c *lineChild) send(cmd string) error {
	_, err := io.WriteString(c.in, cmd+"\n")
	return err
}

func (c *lineChild) read() (string, error) {
	if !c.out.Scan() {
		return "", errors.Join(errors.New("child closed its output"), c.out.Err())
	}
	return c.out.Text(), nil
}

// finish closes the child's input and returns its handler runs.
func (c *lineChild) finish() (int64, error) {
	c.in.Close()
	line, err := c.read()
	if err != nil {
		return 0, err
	}
	if err := c.cmd.Wait(); err != nil {
		return 0, err
	}
	return strconv.ParseInt(strings.TrimPrefix(line, "runs "), 10, 64)
}

// TestPostgresSameIDTwoProcesses sends 64 concurrent calls with one request
// ID, 32 to each of two Provider processes on one database, in each of 16
// rounds, with the handler holding its transaction open for 5 ms, and
// proves that the handler ran once per round in the two processes together,
// that every call got the same result, and that the database holds one
// alert and one effect per round.
func TestPostgresSameIDTwoProcesses(t *testing.T) {
	pgChildMain()
	dsn := pgSchema(t)
	env := pgChildDelay + "=5ms"
	children := []*lineChild{startLineChild(t, t.Name(), dsn, env), startLineChild(t, t.Name(), dsn, env)}
	const rounds = 16
	acked := map[string]string{}
	for range rounds {
		id := providertest.NewRequestID()
		acked[id] = sameIDRound(t, children, id)
	}
	var runs int64
	for _, c := range children {
		n, err := c.finish()
		if err != nil {
			t.Fatal(err)
		}
		runs += n
	}
	if runs != rounds {
		t.Fatalf("handler ran %d times in %d rounds, want once per round", runs, rounds)
	}
	pgVerify(t, pgtest.OpenDSN(t, dsn), acked)
}

// sameIDRound runs one round and returns the one result all calls got.
func sameIDRound(t *testing.T, children []*lineChild, id string) string {
	t.Helper()
	for _, c := range children {
		if err := c.send("same " + id + " 32"); err != nil {
			t.Fatal(err)
		}
	}
	var all []string
	for _, c := range children {
		line, err := c.read()
		if err != nil {
			t.Fatal(err)
		}
		var results []string
		if err := json.Unmarshal([]byte(line), &results); err != nil || len(results) != 32 {
			t.Fatalf("child answered %q", line)
		}
		all = append(all, results...)
	}
	for _, r := range all {
		if r != all[0] {
			t.Fatalf("request %s got %s and %s", id, all[0], r)
		}
	}
	return all[0]
}
