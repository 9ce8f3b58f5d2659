package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExitCodes checks the exit code of each kind of outcome: 0 for valid
// specs (warnings included), 1 for invalid ones, 2 for usage and I/O errors.
func TestExitCodes(t *testing.T) {
	valid := copyBase(t)
	invalidDir := copyBase(t)
	appendTo(t, filepath.Join(invalidDir, "provider.yaml"), "homepage: x\n")
	notes := filepath.Join(filepath.Dir(valid), "notes.yaml")
	if err := os.WriteFile(notes, []byte("a: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		code int
	}{
		{"valid", []string{"validate", valid}, ExitOK},
		{"invalid", []string{"validate", invalidDir}, ExitInvalid},
		{"missing dir", []string{"validate", filepath.Join(valid, "nope")}, ExitUsage},
		{"not a spec file", []string{"validate", notes}, ExitUsage},
		{"a spec file", []string{"validate", filepath.Join(valid, "provider.yaml")}, ExitOK},
		{"a tool file", []string{"validate", filepath.Join(valid, "tools", "read_thing.yaml")}, ExitOK},
		{"a tool file of an invalid spec", []string{"validate", filepath.Join(invalidDir, "tools", "read_thing.yaml")}, ExitInvalid},
		{"bad format", []string{"validate", "--format", "xml", valid}, ExitUsage},
		{"unknown flag", []string{"validate", "--frobnicate", valid}, ExitUsage},
		{"unknown command", []string{"frobnicate"}, ExitUsage},
		{"init exists", []string{"init", valid}, ExitUsage},
		{"meta-schema bad arg", []string{"meta-schema", "widget"}, ExitUsage},
	}
	for _, c := range cases {
		if code, _, stderr := runCLI(t, c.args...); code != c.code {
			t.Errorf("%s: exit %d, want %d\n%s", c.name, code, c.code, stderr)
		}
	}
}

// TestSpecFileArguments: a tool file named on the command line (as a
// pre-commit hook does) is checked with its whole spec; its own
// diagnostics are printed, the other files' errors are counted, and
// outside a project the run says what to do.
func TestSpecFileArguments(t *testing.T) {
	dir := copyBase(t)
	appendTo(t, filepath.Join(dir, "provider.yaml"), "homepage: x\n")
	appendTo(t, filepath.Join(dir, "tools", "read_thing.yaml"), "timeout: 3\n")
	code, _, stderr := runCLI(t, "validate", filepath.Join(dir, "tools", "read_thing.yaml"))
	if code != ExitInvalid || !strings.Contains(stderr, `unknown key "timeout"`) || strings.Contains(stderr, "homepage") ||
		!strings.Contains(stderr, "1 more error(s) in other files of the spec") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
	t.Chdir(t.TempDir())
	if code, _, stderr := runCLI(t, "validate"); code != ExitUsage || !strings.Contains(stderr, "no specs/ here: pass a spec directory or run cetpgen init") {
		t.Errorf("outside a project: exit %d, stderr:\n%s", code, stderr)
	}
}

// TestFileTooLarge checks the size cap with a file the corpus cannot hold.
func TestFileTooLarge(t *testing.T) {
	dir := copyBase(t)
	appendTo(t, filepath.Join(dir, "tools", "read_thing.yaml"), "#"+strings.Repeat("x", 1<<20)+"\n")
	code, _, stderr := runCLI(t, "validate", dir)
	want := filepath.ToSlash(filepath.Join(dir, "tools", "read_thing.yaml")) + ":1:1: error: file is larger than the 1048576-byte limit of spec files [file-too-large]"
	if code != ExitInvalid || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr:\n%s\nwant a line: %s", code, stderr, want)
	}
}

// TestValidateWritesNothing checks that validate leaves the spec directory
// exactly as it was, valid or not.
func TestValidateWritesNothing(t *testing.T) {
	dir := copyBase(t)
	before := snapshot(t, dir)
	runCLI(t, "validate", "--format", "json", dir)
	appendTo(t, filepath.Join(dir, "provider.yaml"), "homepage: x\n")
	before = snapshot(t, dir)
	runCLI(t, "validate", dir)
	if after := snapshot(t, dir); after != before {
		t.Error("validate changed the spec directory")
	}
}

func copyBase(t *testing.T) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "base")
	err := filepath.WalkDir("testdata/valid-base", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel("testdata/valid-base", p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		os.MkdirAll(filepath.Dir(filepath.Join(dst, rel)), 0o755)
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func appendTo(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

// snapshot lists every file of dir with its contents.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := os.ReadFile(p)
			b.WriteString(p + "\n" + string(data) + "\n")
		}
		return err
	})
	return b.String()
}
