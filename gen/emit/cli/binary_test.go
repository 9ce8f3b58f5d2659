package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/cetpgen/cetpgen/gen/catalog"
	"github.com/cetpgen/cetpgen/gen/emit/cli"
	"github.com/cetpgen/cetpgen/out/go/fitness"
	rtcatalog "github.com/cetpgen/cetpgen/runtime/catalog"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/store/memstore"
)

// buildCLI builds the main package at pkg (relative to the module root)
// into the test's temporary directory; overlay, when set, is a go build
// -overlay file.
func buildCLI(t *testing.T, pkg, overlay string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), filepath.Base(pkg))
	args := []string{"build", "-o", bin}
	if overlay != "" {
		args = append(args, "-overlay", overlay)
	}
	cmd := exec.Command("go", append(args, pkg)...)
	cmd.Dir = repoRoot
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, out)
	}
	return bin
}

// exec runs the binary and returns its exit code, stdout and stderr.
func execCLI(t *testing.T, bin string, env []string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), out.String(), errb.String()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, out.String(), errb.String()
}

// fitnessHandler serves two tools of the generated fitness package and
// records their typed inputs.
type fitnessHandler struct {
	fitness.Handler
	mu   sync.Mutex
	logs []fitness.LogWorkoutInput
	list []fitness.ListWorkoutsInput
}

func (h *fitnessHandler) LogWorkout(_ context.Context, _ *provider.Call, in fitness.LogWorkoutInput) (fitness.LogWorkoutOutput, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.logs = append(h.logs, in)
	return fitness.LogWorkoutOutput{WorkoutID: "w_1", CreatedAt: "2026-11-29T08:00:00Z"}, nil
}

func (h *fitnessHandler) ListWorkouts(_ context.Context, _ *provider.Call, in fitness.ListWorkoutsInput) (fitness.ListWorkoutsOutput, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.list = append(h.list, in)
	return fitness.ListWorkoutsOutput{Workouts: []fitness.ListWorkoutsWorkout{}}, nil
}

// seen returns copies of the recorded inputs.
func (h *fitnessHandler) seen() ([]fitness.LogWorkoutInput, []fitness.ListWorkoutsInput) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]fitness.LogWorkoutInput(nil), h.logs...), append([]fitness.ListWorkoutsInput(nil), h.list...)
}

// serveFitness serves the generated fitness Provider with h.
func serveFitness(t *testing.T, h *fitnessHandler) string {
	t.Helper()
	g := grantAll{}
	for _, s := range fitness.Descriptor().Scopes {
		g.scopes = append(g.scopes, s.Name)
	}
	p, err := fitness.New(h, provider.Options{Store: memstore.New(), Authorizer: g, Confirmer: g})
	if err != nil {
		t.Fatal(err)
	}
	return serve(t, p)
}

// TestGeneratedCLI builds out/cli/fitness and runs it against the
// generated fitness Provider over the Unix-socket binding: flag-built
// calls (an enum, numbers, a compatibility leaf with a repeated enum
// list, --json with a flag over it) reach the typed handler with the
// right input and print the result; a bad enum never leaves the CLI.
func TestGeneratedCLI(t *testing.T) {
	bin := buildCLI(t, "./out/cli/fitness", "")
	h := &fitnessHandler{}
	sock := serveFitness(t, h)
	env := []string{cli.SocketEnv + "=" + sock}
	code, out, errs := execCLI(t, bin, env, "fitness", "workout", "log", "--sport", "swim", "--started-at", "2026-11-29T07:00:00+08:00",
		"--duration-seconds", "1800", "--distance-m", "1500.5", "--notes", "pool <50m>")
	if code != 0 || compactJSON(t, out) != `{"created_at":"2026-11-29T08:00:00Z","workout_id":"w_1"}` {
		t.Fatalf("log: exit %d, stdout %s, stderr %s", code, out, errs)
	}
	logs, _ := h.seen()
	in := logs[0]
	if in.Sport != "swim" || in.DurationSeconds != 1800 || in.StartedAt != "2026-11-29T07:00:00+08:00" || *in.Notes != "pool <50m>" {
		t.Errorf("LogWorkout got %+v", in)
	}
	code, out, errs = execCLI(t, bin, env, "fitness", "workouts", "--since", "2026-11-01T00:00:00Z", "--sports", "run", "--sports", "swim", "--limit", "10")
	if code != 0 || compactJSON(t, out) != `{"truncated":false,"workouts":[]}` {
		t.Fatalf("list: exit %d, stdout %s, stderr %s", code, out, errs)
	}
	if _, list := h.seen(); len(list) != 1 {
		t.Fatalf("ListWorkouts calls: %+v", list)
	} else if l := list[0]; len(l.Sports) != 2 || l.Sports[0] != "run" || l.Sports[1] != "swim" || *l.Limit != 10 {
		t.Errorf("ListWorkouts got %+v", l)
	}
	code, _, _ = execCLI(t, bin, env, "fitness", "workout", "log", "--json",
		`{"sport":"ride","started_at":"2026-11-29T07:00:00Z","duration_seconds":600}`, "--sport", "run")
	if logs, _ = h.seen(); code != 0 || len(logs) != 2 || logs[1].Sport != "run" || logs[1].DurationSeconds != 600 {
		t.Fatalf("--json with --sport over it: exit %d, got %+v", code, logs)
	}
	code, _, errs = execCLI(t, bin, env, "fitness", "workout", "log", "--sport", "hike")
	if logs, _ = h.seen(); code != 2 || !strings.Contains(errs, `is not one of run, ride, swim`) || len(logs) != 2 {
		t.Errorf("bad enum: exit %d, stderr %s", code, errs)
	}
}

// TestGeneratedSchema asks the built CLI for leaves, an alias view and
// the overview, and compares each answer with the same query on the
// catalog built in memory from the spec.
func TestGeneratedSchema(t *testing.T) {
	bin := buildCLI(t, "./out/cli/fitness", "")
	t.Chdir(repoRoot)
	p := load(t, "specs/fitness")
	app, err := cli.BuildApp(p)
	if err != nil {
		t.Fatal(err)
	}
	res, err := catalog.Build(cli.Input(p, app))
	if err != nil {
		t.Fatal(err)
	}
	c, err := rtcatalog.Open(res.Data, res.Index)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range [][]string{{"fitness workout log"}, {"fitness workout add"}, {"fitness.list_workouts", "--compact"}, {}, {"fitness"}, {"fitness workout"}} {
		code, out, errs := execCLI(t, bin, nil, append([]string{"schema"}, q...)...)
		var want bytes.Buffer
		query := rtcatalog.Query{Compact: len(q) > 1}
		if len(q) > 0 {
			query.Path = q[0]
		}
		if err := c.Write(&want, query); err != nil || code != 0 || out != want.String() {
			t.Errorf("schema %v: exit %d, %v, stderr %s\n got %.300s\nwant %.300s", q, code, err, errs, out, want.String())
		}
	}
	if code, out, errs := execCLI(t, bin, nil, "schema", "fitness", "workout", "lgo"); code != 2 || out != "" ||
		!strings.Contains(errs, `"code": "CLI_USAGE"`) || !strings.Contains(errs, `did you mean \"fitness workout log\"?`) {
		t.Errorf("unknown path: exit %d, stdout %q, stderr %s", code, out, errs)
	}
}

// TestGoldenFlagRuleCompiles builds the flagrule golden files, which sit
// in testdata, as a main package of the module through a build overlay,
// and asks the binary for its backquoted description.
func TestGoldenFlagRuleCompiles(t *testing.T) {
	abs, _ := filepath.Abs(filepath.Join(repoRoot, "out", cli.Dir, "zz-flagrule-overlay"))
	replace := map[string]string{}
	for _, name := range []string{"main.go", "app.go", "catalog.go"} {
		golden, _ := filepath.Abs(filepath.Join("testdata/golden", cli.Dir, "flagrule", name))
		replace[filepath.Join(abs, name)] = golden
	}
	data, _ := json.Marshal(map[string]any{"Replace": replace})
	overlay := filepath.Join(t.TempDir(), "overlay.json")
	if err := os.WriteFile(overlay, data, 0o644); err != nil {
		t.Fatal(err)
	}
	bin := buildCLI(t, "./out/cli/zz-flagrule-overlay", overlay)
	code, out, errs := execCLI(t, bin, nil, "schema", "flags thing show", "--compact")
	if code != 0 || !strings.Contains(out, "A second paragraph with a `backquote`.") {
		t.Errorf("exit %d, stdout %.400s, stderr %s", code, out, errs)
	}
}

func compactJSON(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, s)
	}
	return b.String()
}
