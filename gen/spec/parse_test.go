package spec

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestNumbers checks that numbers keep the exact literal written, after
// the harmless YAML spellings are made JSON, and that the rest is refused.
func TestNumbers(t *testing.T) {
	cases := []struct {
		yaml string
		want any // json.Number, or nil when refused
	}{
		{"1", json.Number("1")},
		{"-0", json.Number("-0")},
		{"12345678901234567890123", json.Number("12345678901234567890123")},
		{"1e-8", json.Number("1e-8")},
		{"1.5E+3", json.Number("1.5E+3")},
		{"+7", json.Number("7")},
		{".5", json.Number("0.5")},
		{"-.5", json.Number("-0.5")},
		{"5.", json.Number("5")},
		{"0x1F", nil},
		{"0o17", nil},
		{".inf", nil},
		{"-.inf", nil},
		{".nan", nil},
		{"007", nil},
	}
	for _, c := range cases {
		doc, l := Parse("t.yaml", "t.yaml", []byte("v: "+c.yaml+"\n"))
		if c.want == nil {
			if doc != nil || len(l) != 1 || l[0].Rule != "yaml-only-value" {
				t.Errorf("%s: want one yaml-only-value, got %v", c.yaml, l)
			}
			continue
		}
		if doc == nil {
			t.Errorf("%s: refused: %v", c.yaml, l)
			continue
		}
		if got := doc.Value.(map[string]any)["v"]; got != c.want {
			t.Errorf("%s: got %#v, want %#v", c.yaml, got, c.want)
		}
	}
}

// TestPositions checks that pointers map to the YAML nodes they came from,
// keys included, with escaped tokens and through aliases.
func TestPositions(t *testing.T) {
	src := "a:\n  b/c: 1\n  \"~x\": [x, {y: 2}]\nref: &r {k: v}\nuse: *r\n"
	doc, l := Parse("t.yaml", "t.yaml", []byte(src))
	if doc == nil {
		t.Fatal(l)
	}
	cases := []struct {
		ptr       string
		line, col int
		key       bool
	}{
		{"/a/b~1c", 2, 8, false},
		{"/a/b~1c", 2, 3, true},
		{"/a/~0x/1/y", 3, 17, false},
		{"/use/k", 4, 13, false},
		{"/a/missing", 2, 3, false}, // falls back to the enclosing mapping
	}
	for _, c := range cases {
		pos := doc.Pos(c.ptr)
		if c.key {
			pos = doc.KeyPos(c.ptr)
		}
		if pos.Line != c.line || pos.Col != c.col {
			t.Errorf("%s (key=%v): got %d:%d, want %d:%d", c.ptr, c.key, pos.Line, pos.Col, c.line, c.col)
		}
	}
}

// TestLimits checks the file-wide limits: size, depth and alias expansion.
func TestLimits(t *testing.T) {
	big := make([]byte, MaxFileBytes+1)
	for i := range big {
		big[i] = ' '
	}
	deep := strings.Repeat("[", MaxDepth+2) + strings.Repeat("]", MaxDepth+2)
	bomb := "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n" +
		"c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n" +
		"e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e]\n"
	for name, c := range map[string]struct {
		data []byte
		rule string
	}{
		"size":  {big, "file-too-large"},
		"depth": {[]byte("v: " + deep), "too-deep"},
		"bomb":  {[]byte(bomb), "alias-limit"},
	} {
		doc, l := Parse("t.yaml", "t.yaml", c.data)
		if doc != nil || len(l) == 0 || l[0].Rule != c.rule {
			t.Errorf("%s: want %s, got %v", name, c.rule, l)
		}
	}
}
