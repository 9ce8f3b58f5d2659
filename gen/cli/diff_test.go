package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cetpgen/cetpgen/gen"
	"github.com/cetpgen/cetpgen/gen/diff"
	"github.com/cetpgen/cetpgen/gen/ir"
)

// diffBase is the spec every diff case starts from, on both sides.
const diffBase = "testdata/diff/base"

// removeMarker, as the whole content of a new/ section, deletes the file
// from the new side.
const removeMarker = "#remove\n"

// diffWire mirrors the --format json report of cetpgen diff.
type diffWire struct {
	Verdict string `json:"verdict"`
	Fails   bool   `json:"fails"`
	Changes []struct {
		Rule         string `json:"rule"`
		Severity     string `json:"severity"`
		Tool         string `json:"tool"`
		File         string `json:"file"`
		Line         int    `json:"line"`
		Verdict      string `json:"verdict"`
		Acknowledged bool   `json:"acknowledged"`
	} `json:"changes"`
}

// TestDiffCorpus runs every old/new pair of testdata/diff/cases in both
// contract modes: the rule IDs, severities and tools of the verdicts
// exactly as expected (-- expect -- for both modes, unless an
// -- expect.containment -- or -- expect.declared -- section says
// otherwise), the exit code they imply, and the Markdown report of the
// default mode as a golden (-update rewrites it).
func TestDiffCorpus(t *testing.T) {
	runDiffCorpus(t, "testdata/diff/cases", diffBase, false)
}

// TestDiffHistory runs the change history corpus of testdata/diff/history:
// changes written the way real tool sets evolve, over the search-server
// spec in testdata/diff/history/base, each with its expected verdicts in
// both modes stated separately.
func TestDiffHistory(t *testing.T) {
	runDiffCorpus(t, "testdata/diff/history", "testdata/diff/history/base", true)
}

// runDiffCorpus runs every case of dir over base. With both, each case
// must state its verdicts for each mode.
func runDiffCorpus(t *testing.T, dir, base string, both bool) {
	files, err := filepath.Glob(dir + "/*.txtar")
	if err != nil || len(files) < 50 {
		t.Fatalf("want at least 50 diff cases in %s, found %d (%v)", dir, len(files), err)
	}
	for _, f := range files {
		c := loadCase(t, f)
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txtar"), func(t *testing.T) { c.runDiff(t, base, both) })
	}
}

// runDiff builds both sides of one case and checks the comparison in each
// mode, then the default mode's report.
func (c *corpusCase) runDiff(t *testing.T, base string, both bool) {
	root := t.TempDir()
	oldDir, newDir := filepath.Join(root, "old", "spec"), filepath.Join(root, "new", "spec")
	c.buildSide(t, base, oldDir, "old/")
	c.buildSide(t, base, newDir, "new/")
	args := []string{"diff"}
	if cfg, ok := c.section("config.yaml"); ok {
		path := filepath.Join(root, "config.yaml")
		writeFile(t, path, cfg)
		args = append(args, "--config", path)
	}
	args = append(args, oldDir, newDir)
	for _, mode := range diff.Modes {
		want, ok := c.section("expect." + string(mode))
		if !ok && both {
			t.Fatalf("%s has no -- expect.%s -- section", c.path, mode)
		}
		if !ok {
			want, _ = c.section("expect")
		}
		code, stdout, stderr := runCLI(t, append(args, "--format", "json", "--mode", string(mode))...)
		checkSnakeCase(t, stdout)
		got, wantCode := verdictLines(t, stdout), expectedCode(want)
		if code != wantCode {
			t.Errorf("%s: exit code %d, want %d\nstderr:\n%s\nstdout:\n%s", mode, code, wantCode, stderr, stdout)
		}
		if !slices.Equal(got, lines(want)) {
			t.Errorf("%s: verdicts differ\n got: %s\nwant: %s", mode, strings.Join(got, "\n      "), strings.Join(lines(want), "\n      "))
		}
	}
	_, md, _ := runCLI(t, args...)
	md = strings.NewReplacer(oldDir, "$OLD", newDir, "$NEW").Replace(md)
	c.checkGolden(t, "report.md", md)
	if _, ok := c.section("report.json"); ok {
		_, js, _ := runCLI(t, append(args, "--format", "json")...)
		c.checkGolden(t, "report.json", strings.NewReplacer(oldDir, "$OLD", newDir, "$NEW").Replace(js))
	}
}

// snakeKey is the form of every key of cetpgen's JSON output.
var snakeKey = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// checkSnakeCase checks that every object key of a JSON report is
// snake_case, as in every other --format json of cetpgen.
func checkSnakeCase(t *testing.T, report string) {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(report), &v); err != nil {
		t.Fatalf("--format json output does not parse: %v\n%s", err, report)
	}
	var walk func(v any, at string)
	walk = func(v any, at string) {
		switch x := v.(type) {
		case map[string]any:
			for k, item := range x {
				if !snakeKey.MatchString(k) {
					t.Errorf("JSON key %q at %s is not snake_case", k, at)
				}
				walk(item, at+"/"+k)
			}
		case []any:
			for _, item := range x {
				walk(item, at+"/*")
			}
		}
	}
	walk(v, "")
}

// buildSide writes the base spec to dir, then the case's sections under
// prefix over it.
func (c *corpusCase) buildSide(t *testing.T, base, dir, prefix string) {
	t.Helper()
	copyDir(t, base, dir)
	for _, f := range c.archive.Files {
		name, ok := strings.CutPrefix(f.Name, prefix)
		if !ok {
			continue
		}
		path := filepath.Join(dir, filepath.FromSlash(name))
		if string(f.Data) == removeMarker {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			continue
		}
		writeFile(t, path, string(f.Data))
	}
}

// copyDir copies the regular files of src into dst.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		writeFile(t, filepath.Join(dst, rel), string(data))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// writeFile writes data to path, creating its directory.
func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// verdictLines reduces the JSON report to sorted "rule severity tool"
// lines ("-" for the Provider), with " ack" for acknowledged changes.
func verdictLines(t *testing.T, out string) []string {
	t.Helper()
	var r diffWire
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("--format json output does not parse: %v\n%s", err, out)
	}
	var got []string
	for _, c := range r.Changes {
		line := c.Rule + " " + c.Severity + " " + cmpOr(c.Tool, "-")
		if c.Acknowledged {
			line += " ack"
		}
		got = append(got, line)
	}
	slices.Sort(got)
	return got
}

// cmpOr returns s, or def when s is empty.
func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// expectedCode is 1 when an expected verdict is breaking or dangerous and
// not acknowledged, else 0.
func expectedCode(expect string) int {
	for _, l := range lines(expect) {
		f := strings.Fields(l)
		if (f[1] == "breaking" || f[1] == "dangerous") && !slices.Contains(f, "ack") {
			return ExitInvalid
		}
	}
	return ExitOK
}

// gitRepo makes a repository in a temporary directory with the base spec
// committed under specs/notes, and changes the working directory to it.
func gitRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	repo := t.TempDir()
	copyDir(t, diffBase, filepath.Join(repo, "specs", "notes"))
	runGit(t, repo, "init", "-q")
	runGit(t, repo, "add", "specs")
	runGit(t, repo, "-c", "user.name=cetpgen", "-c", "user.email=cetpgen@example.invalid", "-c", "commit.gpgsign=false", "commit", "-q", "-m", "spec")
	t.Chdir(repo)
	return repo
}

// runGit runs git in dir with a configuration isolated from the machine.
func runGit(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// TestDiffGitRevision compares a committed spec (HEAD:specs/notes, read
// through git) with its changed working copy.
func TestDiffGitRevision(t *testing.T) {
	repo := gitRepo(t)
	tool := filepath.Join(repo, "specs", "notes", "tools", "get_note.yaml")
	data, _ := os.ReadFile(tool)
	writeFile(t, tool, strings.Replace(string(data), "effect: read", "effect: update", 1))
	code, out, stderr := runCLI(t, "diff", "--format", "json", "HEAD:specs/notes", "specs/notes")
	if code != ExitInvalid {
		t.Fatalf("exit code %d, want 1\n%s", code, stderr)
	}
	want := []string{"effect-write dangerous get_note", "revision-changed info -", "v1-tool-becomes-write dangerous get_note"}
	if got := verdictLines(t, out); !slices.Equal(got, want) {
		t.Errorf("verdicts %v, want %v", got, want)
	}
	if code, _, stderr := runCLI(t, "diff", "HEAD:specs/notes", "HEAD:specs/notes"); code != ExitOK {
		t.Errorf("a revision compared with itself: exit %d\n%s", code, stderr)
	}
}

// TestDiffGitRevisionErrors checks that an unknown revision or path is a
// usage error that names the problem.
func TestDiffGitRevisionErrors(t *testing.T) {
	gitRepo(t)
	for _, arg := range []string{"nosuchrev:specs/notes", "HEAD:specs/nothing"} {
		code, _, stderr := runCLI(t, "diff", arg, "specs/notes")
		if code != ExitUsage || !strings.Contains(stderr, "git ls-tree") {
			t.Errorf("diff %s: exit %d, want 2 with git's message\n%s", arg, code, stderr)
		}
	}
}

// TestDiffGitHubAnnotations checks that --format github points at the
// changed line of the new spec.
func TestDiffGitHubAnnotations(t *testing.T) {
	root := t.TempDir()
	oldDir, newDir := filepath.Join(root, "a", "notes"), filepath.Join(root, "b", "notes")
	copyDir(t, diffBase, oldDir)
	copyDir(t, diffBase, newDir)
	tool := filepath.Join(newDir, "tools", "get_note.yaml")
	data, _ := os.ReadFile(tool)
	writeFile(t, tool, strings.Replace(string(data), "effect: read", "effect: update", 1))
	code, out, _ := runCLI(t, "diff", "--format", "github", oldDir, newDir)
	line := lineOf(string(data), "effect: read")
	want := regexp.MustCompile(`(?m)^::warning file=[^,]*get_note\.yaml,line=` + strconv.Itoa(line) + `,col=\d+,title=cetpgen diff dangerous effect-write::effect changed from read to update`)
	if code != ExitInvalid || !want.MatchString(out) {
		t.Errorf("exit %d, output:\n%s\nwant a warning at line %d", code, out, line)
	}
}

// lineOf returns the 1-based line of the first occurrence of s in text.
func lineOf(text, s string) int {
	return strings.Count(text[:strings.Index(text, s)], "\n") + 1
}

// TestDiffInvalidSide checks that an invalid spec on either side prints
// its diagnostics and exits 1.
func TestDiffInvalidSide(t *testing.T) {
	root := t.TempDir()
	good, bad := filepath.Join(root, "good", "notes"), filepath.Join(root, "bad", "notes")
	copyDir(t, diffBase, good)
	copyDir(t, diffBase, bad)
	tool := filepath.Join(bad, "tools", "delete_note.yaml")
	data, _ := os.ReadFile(tool)
	writeFile(t, tool, strings.Replace(string(data), "confirmation: always", "confirmation: never", 1))
	for _, args := range [][]string{{bad, good}, {good, bad}} {
		code, stdout, stderr := runCLI(t, append([]string{"diff"}, args...)...)
		if code != ExitInvalid || stdout != "" || !strings.Contains(stderr, "delete_note.yaml") {
			t.Errorf("diff %v: exit %d, stdout %q, stderr:\n%s", args, code, stdout, stderr)
		}
	}
}

// TestDiffUsage checks the usage errors: exit 2.
func TestDiffUsage(t *testing.T) {
	root := t.TempDir()
	cfg := filepath.Join(root, "bad.yaml")
	writeFile(t, cfg, "severity:\n  no-such-rule: info\n")
	badMode := filepath.Join(root, "mode.yaml")
	writeFile(t, badMode, "mode: strict\n")
	unknownKey := filepath.Join(root, "unknown.yaml")
	writeFile(t, unknownKey, "acknowledge:\n  - {rule: tool-removed, tool: x, reason: r, extra: 1}\n")
	for _, args := range [][]string{
		{"diff", diffBase},
		{"diff", "--format", "xml", diffBase, diffBase},
		{"diff", "--config", cfg, diffBase, diffBase},
		{"diff", "--config", unknownKey, diffBase, diffBase},
		{"diff", "--config", badMode, diffBase, diffBase},
		{"diff", "--mode", "strict", diffBase, diffBase},
		{"diff", "--config", filepath.Join(root, "missing.yaml"), diffBase, diffBase},
		{"diff", filepath.Join(root, "nowhere"), diffBase},
	} {
		if code, _, stderr := runCLI(t, args...); code != ExitUsage {
			t.Errorf("%v: exit %d, want 2\n%s", args, code, stderr)
		}
	}
}

// TestDiffRevisionMismatch checks the bookkeeping rule: a revision that
// stays the same although a tool changed is reported as breaking, and one
// that moves although no tool changed as well.
func TestDiffRevisionMismatch(t *testing.T) {
	root := t.TempDir()
	oldDir, newDir := filepath.Join(root, "a", "notes"), filepath.Join(root, "b", "notes")
	copyDir(t, diffBase, oldDir)
	copyDir(t, diffBase, newDir)
	tool := filepath.Join(newDir, "tools", "get_note.yaml")
	data, _ := os.ReadFile(tool)
	writeFile(t, tool, strings.Replace(string(data), "risk: low", "risk: moderate", 1))
	old, new := checkOne(t, oldDir), checkOne(t, newDir)
	new.Revision = old.Revision
	if got := rulesOf(diff.Compare(old, new, diff.DefaultMode)); !slices.Contains(got, "revision-mismatch breaking") {
		t.Errorf("stale revision not reported: %v", got)
	}
	same := checkOne(t, oldDir)
	same.Revision = "0000000000000000"
	if got := rulesOf(diff.Compare(old, same, diff.DefaultMode)); !slices.Equal(got, []string{"revision-mismatch breaking"}) {
		t.Errorf("needless revision change: %v", got)
	}
}

// checkOne loads one spec directory into its IR.
func checkOne(t *testing.T, dir string) *ir.Provider {
	t.Helper()
	ps, l, err := gen.Check(gen.OSSource, []string{dir})
	if err != nil || len(ps) != 1 {
		t.Fatalf("check %s: %v %v", dir, err, l)
	}
	return ps[0]
}

// rulesOf lists a report's changes as "rule severity".
func rulesOf(r *diff.Report) []string {
	var out []string
	for _, c := range r.Changes {
		out = append(out, c.Rule+" "+string(c.Severity))
	}
	return out
}

// TestDiffRulesDocumented keeps docs/diff.md in step with the rule table:
// every rule ID appears there with its default severity.
func TestDiffRulesDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/diff.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range diff.Rules() {
		row := "| `" + r.ID + "` | " + string(r.Severity) + " |"
		if !strings.Contains(string(doc), row) {
			t.Errorf("docs/diff.md has no row starting %q", row)
		}
	}
}

// TestDiffModePrecedence checks which contract mode a run uses: --mode
// over the config's mode over the default (declared), on a change whose
// verdict differs between the modes (an open input closed).
func TestDiffModePrecedence(t *testing.T) {
	root := t.TempDir()
	oldDir, newDir := filepath.Join(root, "a", "notes"), filepath.Join(root, "b", "notes")
	copyDir(t, diffBase, oldDir)
	copyDir(t, diffBase, newDir)
	tool := filepath.Join(newDir, "tools", "list_notes.yaml")
	data, _ := os.ReadFile(tool)
	writeFile(t, tool, strings.Replace(string(data), "    query:\n      type: string\n", "    query:\n      type: string\n  additionalProperties: false\n", 1))
	cfg := filepath.Join(root, "containment.yaml")
	writeFile(t, cfg, "mode: containment\n")
	for _, c := range []struct {
		args []string
		mode string
		code int
	}{
		{nil, "declared", ExitOK},
		{[]string{"--config", cfg}, "containment", ExitInvalid},
		{[]string{"--config", cfg, "--mode", "declared"}, "declared", ExitOK},
		{[]string{"--mode", "containment"}, "containment", ExitInvalid},
	} {
		args := append(append([]string{"diff", "--format", "json"}, c.args...), oldDir, newDir)
		code, out, stderr := runCLI(t, args...)
		var r struct {
			Mode string `json:"mode"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil || code != c.code || r.Mode != c.mode {
			t.Errorf("%v: exit %d, mode %q, want exit %d in %s mode\n%s%s", c.args, code, r.Mode, c.code, c.mode, stderr, out)
		}
	}
}

// TestDiffConfigErrorsAtOnce checks that every problem of a config is
// reported in one run, each at its line and column.
func TestDiffConfigErrorsAtOnce(t *testing.T) {
	root := t.TempDir()
	cfg := filepath.Join(root, "cfg.yaml")
	writeFile(t, cfg, "mode: strict\nseverity:\n  no-such-rule: info\n  tool-removed: fatal\nacknowledge:\n  - {rule: tool-removed, tool: x}\n  - rule: effect-write\n    reason: ok\n    extra: 1\ncolour: red\n")
	code, _, stderr := runCLI(t, "diff", "--config", cfg, diffBase, diffBase)
	want := []string{
		cfg + `:1:7: mode "strict" is not containment or declared`,
		cfg + `:3:3: severity: unknown rule "no-such-rule"`,
		cfg + `:4:17: severity of tool-removed: "fatal" is not breaking, dangerous or info`,
		cfg + `:6:5: acknowledge[0]: give a reason`,
		cfg + `:9:5: acknowledge[1]: unknown key "extra" (want rule, tool, reason)`,
		cfg + `:10:1: unknown key "colour" (want mode, severity or acknowledge)`,
	}
	if code != ExitUsage {
		t.Errorf("exit %d, want 2", code)
	}
	for _, w := range want {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, stderr)
		}
	}
}
