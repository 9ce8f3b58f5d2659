package cetpcli_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/cetpcli"
)

// TestFlagsReachTheTool runs calls over the Unix-socket binding and checks
// the args the tool received and the result printed: every flag kind, the
// --json escape (argument and stdin) with flags set over it, a cobra alias
// and a compatibility leaf.
func TestFlagsReachTheTool(t *testing.T) {
	rec := &recorder{}
	sock := serve(t, rec)
	cases := []struct {
		name, stdin string
		args        []string
		want        string
	}{
		{"scalars", "", []string{"notes", "echo", "--text", "hi <&>", "--count", "-3", "--ratio", "2.5e3", "--loud", "--mode", "b"},
			`{"count":-3,"loud":true,"mode":"b","ratio":2.5e3,"text":"hi <&>"}`},
		{"lists and json", "", []string{"notes", "echo", "--text", "x", "--tag", "a,b", "--tag", "c", "--n", "1", "--n", "2", "--meta", `{"k": [1, null]}`},
			`{"meta":{"k":[1,null]},"ns":[1,2],"tags":["a,b","c"],"text":"x"}`},
		{"exact numbers", "", []string{"notes", "echo", "--text", "x", "--ratio", "0.10000000000000000001"}, `{"ratio":0.10000000000000000001,"text":"x"}`},
		{"number past float64", "", []string{"notes", "echo", "--text", "x", "--ratio", "-1E400"}, `{"ratio":-1E400,"text":"x"}`},
		{"bool false", "", []string{"notes", "echo", "--text", "x", "--loud=false"}, `{"loud":false,"text":"x"}`},
		{"json escape", "", []string{"notes", "echo", "--json", `{"text":"a","extra":{"big":12345678901234567890}}`, "--text", "b"},
			`{"extra":{"big":12345678901234567890},"text":"b"}`},
		{"json from stdin", `{"text":"from stdin"}`, []string{"notes", "echo", "--json", "-"}, `{"text":"from stdin"}`},
		{"cobra alias", "", []string{"notes", "say", "--text", "x"}, `{"text":"x"}`},
		{"compatibility leaf", "", []string{"notes", "other", "echo", "--text", "x"}, `{"text":"x"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := run(c.stdin, nil, append(c.args, "--socket", sock)...)
			if r.code != cetpcli.ExitOK {
				t.Fatalf("exit %d, stderr %s", r.code, r.stderr)
			}
			if got := rec.last(); got != c.want {
				t.Errorf("tool got args %s, want %s", got, c.want)
			}
			if got := compact(t, r.stdout); got != c.want || !strings.HasSuffix(r.stdout, "}\n") {
				t.Errorf("stdout %q, want %s", r.stdout, c.want)
			}
		})
	}
}

// TestSocketFromEnvironment uses the environment variable when --socket
// is not given.
func TestSocketFromEnvironment(t *testing.T) {
	rec := &recorder{}
	sock := serve(t, rec)
	r := run("", map[string]string{"CETP_TEST_SOCKET": sock}, "notes", "echo", "--text", "env")
	if r.code != 0 || rec.last() != `{"text":"env"}` {
		t.Fatalf("exit %d, args %s, stderr %s", r.code, rec.last(), r.stderr)
	}
}

// errorOf decodes the {"error": ...} object printed on stderr.
func errorOf(t *testing.T, stderr string) map[string]any {
	t.Helper()
	var v struct {
		Error map[string]any `json:"error"`
	}
	if err := json.Unmarshal([]byte(stderr), &v); err != nil || v.Error == nil {
		t.Fatalf("stderr is not a JSON error: %v\n%s", err, stderr)
	}
	return v.Error
}

// TestProviderError prints the structured CETP error and exits 1.
func TestProviderError(t *testing.T) {
	sock := serve(t, &recorder{})
	r := run("", nil, "notes", "fail", "--socket", sock)
	e := errorOf(t, r.stderr)
	if r.code != cetpcli.ExitProvider || e["code"] != "CONFLICT" || e["source"] != "provider" || r.stdout != "" {
		t.Fatalf("exit %d, error %v, stdout %q", r.code, e, r.stdout)
	}
	if d, _ := e["details"].(map[string]any); d["alert_id"] != "a_1" || e["message"] != "alert a_1 changed meanwhile" || e["request_id"] == "" {
		t.Errorf("error %v lacks the Provider's details, message or request ID", e)
	}
}

// TestUsageErrors are refused before any call, with exit 2 and a JSON
// error naming the problem; an unreachable socket exits 3.
func TestUsageErrors(t *testing.T) {
	rec := &recorder{}
	sock := serve(t, rec)
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"notes", "echo"}, cetpcli.ExitUsage, "missing required --text"},
		{[]string{"notes", "echo", "--text", "x", "--mode", "c"}, cetpcli.ExitUsage, `"c" is not one of a, b`},
		{[]string{"notes", "echo", "--text", "x", "--count", "1.5"}, cetpcli.ExitUsage, "is not an integer"},
		{[]string{"notes", "echo", "--text", "x", "--ratio", "0x10"}, cetpcli.ExitUsage, "is not a number"},
		{[]string{"notes", "echo", "--text", "x", "--loud=maybe"}, cetpcli.ExitUsage, "is not true or false"},
		{[]string{"notes", "echo", "--text", "x", "--meta", "{"}, cetpcli.ExitUsage, `invalid argument "{" for "--meta" flag: invalid JSON at byte 1: unexpected end of JSON input`},
		{[]string{"notes", "echo", "--json", "[1]"}, cetpcli.ExitUsage, "--json must be a JSON object, not an array"},
		{[]string{"notes", "echo", "--json", "null"}, cetpcli.ExitUsage, "--json must be a JSON object, not null"},
		{[]string{"notes", "echo", "--json", `{"text":"a"} {}`}, cetpcli.ExitUsage, "--json: invalid JSON at byte 14: invalid character '{' after top-level value"},
		{[]string{"notes", "echo", "--json", "{\n \"text\": \"a\",\n}"}, cetpcli.ExitUsage,
			"--json: invalid JSON at byte 17 (line 3, column 1): invalid character '}' looking for beginning of object key string"},
		{[]string{"notes", "echo", "--text", "x", "--nope"}, cetpcli.ExitUsage, "unknown flag"},
		{[]string{"notes", "echo", "--text", "x", "positional"}, cetpcli.ExitUsage, "unknown command"},
	}
	for _, c := range cases {
		r := run("", nil, append(c.args, "--socket", sock)...)
		if e := errorOf(t, r.stderr); r.code != c.code || !strings.Contains(e["message"].(string), c.want) || e["code"] != cetpcli.CodeUsage {
			t.Errorf("%v: exit %d, error %v; want exit %d and %q", c.args, r.code, e, c.code, c.want)
		}
	}
	if len(rec.args) != 0 {
		t.Errorf("the tool was called: %v", rec.args)
	}
	if r := run("", nil, "notes", "echo", "--text", "x"); r.code != cetpcli.ExitUsage || !strings.Contains(r.stderr, "CETP_TEST_SOCKET") {
		t.Errorf("no socket: exit %d, %s", r.code, r.stderr)
	}
	r := run("", nil, "notes", "echo", "--text", "x", "--socket", sock+".missing")
	if e := errorOf(t, r.stderr); r.code != cetpcli.ExitTransport || e["code"] != cetpcli.CodeTransport {
		t.Errorf("unreachable socket: exit %d, %v", r.code, e)
	}
}

// TestTimeout bounds a call that does not answer in time with --timeout,
// which is also the call's deadline_at_ms: either the Provider answers
// first with a retryable DEADLINE_EXCEEDED (its handler's context ends at
// the deadline), or the client gives up first; both end the call well
// before the handler's second.
func TestTimeout(t *testing.T) {
	sock := serve(t, &recorder{})
	start := time.Now()
	r := run("", nil, "notes", "slow", "--timeout", "200ms", "--socket", sock)
	took := time.Since(start)
	t.Logf("returned after %v", took)
	e := errorOf(t, r.stderr)
	provider := r.code == cetpcli.ExitProvider && e["code"] == "DEADLINE_EXCEEDED" && e["retryable"] == true
	client := r.code == cetpcli.ExitTransport && e["code"] == cetpcli.CodeTransport
	if !provider && !client || took > 10*time.Second {
		t.Errorf("exit %d after %v, error %v", r.code, took, e)
	}
}
