package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/cetpgen/cetpgen/gen/diag"
	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the golden sections of testdata")

// corpusCase is one txtar case of testdata/invalid or testdata/lint.
type corpusCase struct {
	path    string
	archive *txtar.Archive
}

// TestCorpusInvalid runs every negative case: exit code 1 and exactly the
// expected diagnostics, each at its expected line and column.
func TestCorpusInvalid(t *testing.T) { runCorpus(t, "testdata/invalid", ExitInvalid) }

// TestCorpusLint runs every lint case: exit code 0 and exactly the expected
// warnings.
func TestCorpusLint(t *testing.T) { runCorpus(t, "testdata/lint", ExitOK) }

func runCorpus(t *testing.T, dir string, wantCode int) {
	files, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no cases in %s (%v)", dir, err)
	}
	for _, f := range files {
		c := loadCase(t, f)
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txtar"), func(t *testing.T) { c.run(t, wantCode) })
	}
}

func loadCase(t *testing.T, path string) *corpusCase {
	t.Helper()
	a, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return &corpusCase{path: path, archive: a}
}

func (c *corpusCase) section(name string) (string, bool) {
	for _, f := range c.archive.Files {
		if f.Name == name {
			return string(f.Data), true
		}
	}
	return "", false
}

func (c *corpusCase) run(t *testing.T, wantCode int) {
	dir := writeSpec(t, c.archive)
	code, stdout, stderr := runCLI(t, "validate", "--format", "json", dir)
	if code != wantCode {
		t.Fatalf("exit code %d, want %d\nstderr:\n%s", code, wantCode, stderr)
	}
	if stderr != "" {
		t.Errorf("validate --format json wrote to stderr: %q", stderr)
	}
	want, _ := c.section("expect")
	if got := summarize(t, stdout, dir); !slices.Equal(got, lines(want)) {
		t.Errorf("diagnostics differ\n got: %s\nwant: %s", strings.Join(got, "\n      "), strings.Join(lines(want), "\n      "))
	}
	_, _, text := runCLI(t, "validate", dir)
	c.checkGolden(t, "stderr", strings.ReplaceAll(text, dir, "$SPEC"))
}

// writeSpec writes the archive's files (all but the expect and stderr
// sections) into a fresh spec directory.
func writeSpec(t *testing.T, a *txtar.Archive) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "spec")
	for _, f := range a.Files {
		if f.Name == "expect" || f.Name == "stderr" {
			continue
		}
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// summarize reduces --format json output to sorted "path:line:col severity
// rule" lines with paths relative to the spec directory.
func summarize(t *testing.T, jsonOut, dir string) []string {
	t.Helper()
	var r diag.JSONReport
	if err := json.Unmarshal([]byte(jsonOut), &r); err != nil {
		t.Fatalf("--format json output does not parse: %v\n%s", err, jsonOut)
	}
	var out []string
	for _, d := range r.Diagnostics {
		rel := strings.TrimPrefix(strings.TrimPrefix(d.File, filepath.ToSlash(dir)), "/")
		out = append(out, fmt.Sprintf("%s:%d:%d %s %s", rel, d.Line, d.Column, d.Severity, d.Rule))
	}
	sort.Strings(out)
	return out
}

func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	sort.Strings(out)
	return out
}

// checkGolden compares got with the archive's section name, or rewrites
// the section under -update.
func (c *corpusCase) checkGolden(t *testing.T, name, got string) {
	t.Helper()
	want, ok := c.section(name)
	if *update {
		c.setSection(name, got)
		if err := os.WriteFile(c.path, txtar.Format(c.archive), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !ok {
		t.Fatalf("%s has no -- %s -- section; run go test ./gen/cli -update", c.path, name)
	}
	if got != want {
		t.Errorf("%s differs (run with -update if the change is intended)\n got:\n%s\nwant:\n%s", name, got, want)
	}
}

func (c *corpusCase) setSection(name, data string) {
	for i, f := range c.archive.Files {
		if f.Name == name {
			c.archive.Files[i].Data = []byte(data)
			return
		}
	}
	c.archive.Files = append(c.archive.Files, txtar.File{Name: name, Data: []byte(data)})
}

// runCLI runs cetpgen in-process.
func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}
