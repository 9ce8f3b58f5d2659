package kotlin

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
)

var hostile = []string{
	"", "plain", `"quoted"`, `back\slash`, "$x", "${x}", "${'$'}{evil}", "*/ fun x() {} /*",
	"line\nbreak\r\n", "tab\tbell\a nul\x00 del\x7f", "价格 😀", "\u2028\u2029\ufeff", "`tick`",
}

// unquoteKotlin decodes a Kotlin string literal that uses only the
// escapes kotlinString writes.
func unquoteKotlin(t *testing.T, lit string) string {
	t.Helper()
	if !strings.HasPrefix(lit, `"`) || !strings.HasSuffix(lit, `"`) || len(lit) < 2 {
		t.Fatalf("not a literal: %s", lit)
	}
	body := []rune(lit[1 : len(lit)-1])
	var units []uint16
	for i := 0; i < len(body); i++ {
		r := body[i]
		if r == '"' || r == '$' || r == '\n' || r == '\r' {
			t.Fatalf("raw %q inside literal %s", r, lit)
		}
		if r != '\\' {
			units = append(units, utf16.Encode([]rune{r})...)
			continue
		}
		i++
		switch body[i] {
		case 'u':
			n, _ := strconv.ParseUint(string(body[i+1:i+5]), 16, 16)
			units = append(units, uint16(n))
			i += 4
		default:
			units = append(units, uint16(map[rune]rune{'n': '\n', 'r': '\r', 't': '\t', 'b': '\b', '"': '"', '\\': '\\', '$': '$'}[body[i]]))
		}
	}
	return string(utf16.Decode(units))
}

// TestKotlinString checks that every hostile string survives a Kotlin
// string literal exactly and can neither end it nor start a template.
func TestKotlinString(t *testing.T) {
	for _, s := range hostile {
		if got := unquoteKotlin(t, kotlinString(s)); got != s {
			t.Errorf("kotlinString(%q) decodes to %q", s, got)
		}
	}
}

// TestKdoc checks that no hostile text closes or opens a block comment.
func TestKdoc(t *testing.T) {
	for _, s := range hostile {
		doc := kdoc("    ", s)
		if strings.Contains(doc, "*/") || strings.Contains(doc, "/*") {
			t.Errorf("kdoc(%q) = %q keeps a comment delimiter", s, doc)
		}
		for _, line := range strings.Split(doc, "\n") {
			if !strings.HasPrefix(line, "     *") {
				t.Errorf("kdoc(%q): line %q is not a comment line", s, line)
			}
		}
	}
}

// TestStringChunks checks that a long text is split into literals that
// each fit a class-file constant and join back to the text.
func TestStringChunks(t *testing.T) {
	text := strings.Repeat("a\u00e9\u4ef7\U0001F600\x00$", 20000)
	lits := strings.Split(stringChunks(text), `", "`)
	if len(lits) < 2 {
		t.Fatalf("%d literal(s) for %d bytes", len(lits), len(text))
	}
	var joined strings.Builder
	for i, l := range lits {
		if i > 0 {
			l = `"` + l
		}
		if i < len(lits)-1 {
			l += `"`
		}
		s, err := strconv.Unquote(strings.ReplaceAll(l, `\$`, "$"))
		if err != nil {
			t.Fatalf("literal %d: %v", i, err)
		}
		size := 0
		for _, r := range s {
			size += classFileBytes(r)
		}
		if size > 65535 {
			t.Errorf("literal %d: %d class-file bytes", i, size)
		}
		joined.WriteString(s)
	}
	if joined.String() != text {
		t.Error("the literals do not join back to the text")
	}
}
