package quickstart

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// buildOutput finds the output path of each go build -o in a document.
var buildOutput = regexp.MustCompile(`go build -o (\S+)`)

// TestBuildOutputsAreIgnored checks that every binary the README and
// docs/ tell a reader to build lands where git ignores it (bin/) or
// outside the repository (~/..., an absolute path, /dev/null), so that
// following the documentation never leaves untracked files in a clone.
func TestBuildOutputsAreIgnored(t *testing.T) {
	docs, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	docs = append(docs, filepath.Join(repoRoot, "README.md"), filepath.Join(repoRoot, "Makefile"))
	found := 0
	for _, doc := range docs {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range buildOutput.FindAllStringSubmatch(string(data), -1) {
			found++
			out := strings.Trim(m[1], "`'\"")
			if strings.HasPrefix(out, "~") || strings.HasPrefix(out, "/") || strings.HasPrefix(out, "$") {
				continue
			}
			if !ignored(t, out) {
				t.Errorf("%s: go build -o %s writes a file git does not ignore; build into bin/", doc, out)
			}
		}
	}
	if found < 3 {
		t.Fatalf("found %d go build -o commands; the scan misses the documentation", found)
	}
}

// ignored reports whether git ignores path (relative to the repository
// root).
func ignored(t *testing.T, path string) bool {
	t.Helper()
	cmd := exec.Command("git", "check-ignore", "-q", "--no-index", path)
	cmd.Dir = repoRoot
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
		return false
	}
	if err != nil {
		t.Fatalf("git check-ignore %s: %v", path, err)
	}
	return true
}
