package ir_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cetpgen/cetpgen/gen"
	"github.com/cetpgen/cetpgen/gen/ir"
)

// edit is one change to a copy of specs/alerts: replace old with new in file.
type edit struct {
	name, file, old, new string
	changes              bool // whether the revision must change
}

var edits = []edit{
	{"tool description", "tools/create_alert.yaml", "description: 为指定证券创建价格提醒", "description: 为指定证券创建一个价格提醒", true},
	{"schema bound", "tools/create_alert.yaml", "exclusiveMinimum: 0", "exclusiveMinimum: 1", true},
	{"schema number literal", "tools/create_alert.yaml", "exclusiveMinimum: 0", "exclusiveMinimum: 0.0", true},
	{"annotation risk", "tools/create_alert.yaml", "risk: moderate", "risk: low", true},
	{"annotation open_world", "tools/create_alert.yaml", "open_world: false", "open_world: true", true},
	{"scope access", "provider.yaml", "access: read", "access: write", true},
	{"comment", "tools/create_alert.yaml", "name: create_alert", "name: create_alert # the seed's tool", false},
	{"cli summary", "tools/create_alert.yaml", "summary: 创建一个价格提醒", "summary: 新建价格提醒", false},
	{"provider description", "provider.yaml", "description: 管理价格提醒和自选列表", "description: 价格提醒", false},
	{"flow style", "tools/create_alert.yaml", "required: [symbol, price]", "required:\n    - symbol\n    - price", false},
}

// TestRevision checks that the revision changes exactly when tools,
// schemas or safety semantics change (CETP v2 §3.3).
func TestRevision(t *testing.T) {
	base := revisionOf(t, copySpec(t, "../../specs/alerts"))
	if len(base) != 16 || strings.Trim(base, "0123456789abcdef") != "" {
		t.Fatalf("revision %q is not 16 lowercase hex digits", base)
	}
	for _, e := range edits {
		t.Run(e.name, func(t *testing.T) {
			dir := copySpec(t, "../../specs/alerts")
			replaceIn(t, filepath.Join(dir, e.file), e.old, e.new)
			if got := revisionOf(t, dir); (got != base) != e.changes {
				t.Errorf("revision %s -> %s; want changed=%v", base, got, e.changes)
			}
		})
	}
}

// TestRevisionToolSet checks that removing a tool changes the revision.
func TestRevisionToolSet(t *testing.T) {
	dir := copySpec(t, "../../specs/alerts")
	base := revisionOf(t, dir)
	if err := os.Remove(filepath.Join(dir, "tools", "update_alert.yaml")); err != nil {
		t.Fatal(err)
	}
	if revisionOf(t, dir) == base {
		t.Error("removing a tool did not change the revision")
	}
}

func revisionOf(t *testing.T, dir string) string {
	t.Helper()
	ps, l, err := gen.Check(gen.OSSource, []string{dir})
	if err != nil || l.HasErrors() || len(ps) != 1 {
		t.Fatalf("check %s: %v %v", dir, err, l)
	}
	return ps[0].Revision
}

func copySpec(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dst, rel)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func replaceIn(t *testing.T, path, old, new string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), old) {
		t.Fatalf("%s does not contain %q", path, old)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCanonical checks the canonical encoding on the values JSON Schema
// documents hold: sorted keys, exact number literals, unescaped Unicode,
// escaped control characters and any property name.
func TestCanonical(t *testing.T) {
	v := map[string]any{
		"b": []any{json1("1e-8"), json1("12345678901234567890"), true, nil},
		"a": "価格 \"q\" \\ \n\t\x01 */ `x`",
		"":  map[string]any{"a/b": "~", "é": false},
	}
	got, err := ir.Canonical(v)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"":{"a/b":"~","é":false},"a":"価格 \"q\" \\ \n\t\u0001 */ ` + "`x`" + `","b":[1e-8,12345678901234567890,true,null]}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestIntegralNumbers checks that an integer may be written as any
// integral JSON number, as JSON Schema defines integers.
func TestIntegralNumbers(t *testing.T) {
	dir := copySpec(t, "../../specs/brokerage")
	replaceIn(t, filepath.Join(dir, "provider.yaml"), "max_request_bytes: 131072", "max_request_bytes: 1.31072e5")
	replaceIn(t, filepath.Join(dir, "provider.yaml"), "versions: [2]", "versions: [2.0]")
	ps, l, err := gen.Check(gen.OSSource, []string{dir})
	if err != nil || l.HasErrors() {
		t.Fatalf("check: %v %v", err, l)
	}
	if got := ps[0].Limits.MaxRequestBytes; got != 131072 {
		t.Errorf("max_request_bytes = %d, want 131072", got)
	}
	if got := ps[0].Versions; len(got) != 1 || got[0] != 2 {
		t.Errorf("versions = %v, want [2]", got)
	}
}
