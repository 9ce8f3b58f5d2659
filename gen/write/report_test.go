package write

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cetpgen/cetpgen/gen/emit"
)

// TestCheckShowsAOneWordEditInALongLine changes one word in the middle of
// a 20 kB line: the report names the file, shows both words, and prints
// no line longer than a terminal can show.
func TestCheckShowsAOneWordEditInALongLine(t *testing.T) {
	root := t.TempDir()
	long := func(word string) string {
		return strings.Repeat("a", 10_000) + " " + word + " " + strings.Repeat("z", 10_000) + "\n"
	}
	plan := Plan{Root: root, Owned: []string{"cli"}, Files: []emit.File{gen("cli/catalog.go", long("prices"))}}
	if _, err := Apply(plan); err != nil {
		t.Fatal(err)
	}
	plan.Files = []emit.File{gen("cli/catalog.go", long("quotes"))}
	d, err := Check(plan)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"modify cli/catalog.go (+1 -1 lines)", "a prices z", "a quotes z", "…(9941 bytes)…"} {
		if !strings.Contains(d, want) {
			t.Errorf("report lacks %q:\n%s", want, d)
		}
	}
	for _, l := range strings.Split(d, "\n") {
		if len(l) > 2*lineContext+80 {
			t.Errorf("a report line is %d bytes long: %.80q…", len(l), l)
		}
	}
}

// TestCheckBoundsTheDiff regenerates 50 files of 100 changed lines each:
// every file is in the summary, but the diff stops at maxTotalLines lines
// and says what it left out.
func TestCheckBoundsTheDiff(t *testing.T) {
	root := t.TempDir()
	body := func(v string) string {
		var b strings.Builder
		for i := range 100 {
			fmt.Fprintf(&b, "line %d %s\n", i, v)
		}
		return b.String()
	}
	var before, after []emit.File
	for i := range 50 {
		before = append(before, gen(fmt.Sprintf("go/a/f%02d.go", i), body("old")))
		after = append(after, gen(fmt.Sprintf("go/a/f%02d.go", i), body("new")))
	}
	if _, err := Apply(Plan{Root: root, Owned: []string{"go/a"}, Files: before}); err != nil {
		t.Fatal(err)
	}
	d, err := Check(Plan{Root: root, Owned: []string{"go/a"}, Files: after})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(d, "50 generated file(s) differ") || !strings.Contains(d, "modify go/a/f49.go (+100 -100 lines)") {
		t.Errorf("summary incomplete:\n%.600s", d)
	}
	if n := strings.Count(d, "\n"); n > 51+50+maxTotalLines+50 {
		t.Errorf("report has %d lines; the diff should stop near %d", n, maxTotalLines)
	}
	if !strings.Contains(d, "more diff line(s) of go/a/f49.go not shown") {
		t.Errorf("report does not say what it left out:\n%s", d[len(d)-400:])
	}
}
