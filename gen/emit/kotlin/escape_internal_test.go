package kotlin

import (
	"encoding/json"
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

// TestNames checks keyword quoting, conversion and collision suffixes.
func TestNames(t *testing.T) {
	a := newAllocator("toJson")
	got := []string{}
	for _, wire := range []string{"a-b", "a_b", "", "😀", "fun", "toJson", "2fa", "价格"} {
		got = append(got, quoted(a.name(camel(wire, "property"))))
	}
	want := []string{"aB", "aB2", "property", "property2", "`fun`", "toJson2", "p2fa", "价格"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("names = %v, want %v", got, want)
	}
	if p := pascal("list_alerts", "Tool"); p != "ListAlerts" {
		t.Errorf("pascal = %s", p)
	}
	if u := upperSnake("sync_or-async 2"); u != "SYNC_OR_ASYNC_2" {
		t.Errorf("upperSnake = %s", u)
	}
}

// TestNumberLiteral checks that numbers keep their exact value.
func TestNumberLiteral(t *testing.T) {
	cases := map[string]string{
		"5":                              "JsonPrimitive(5L)",
		"-9223372036854775807":           "JsonPrimitive(-9223372036854775807L)",
		"123456789012345678901234567890": `JsonUnquotedLiteral("123456789012345678901234567890")`,
		"1e-8":                           `JsonUnquotedLiteral("1e-8")`,
		"0.1":                            `JsonUnquotedLiteral("0.1")`,
	}
	for in, want := range cases {
		if got := jsonLiteral(json.Number(in), ""); got != want {
			t.Errorf("jsonLiteral(%s) = %s, want %s", in, got, want)
		}
	}
}
