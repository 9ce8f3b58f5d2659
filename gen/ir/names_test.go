package ir

import (
	"go/token"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// TestExportName proves every property name becomes an exported Go
// identifier, deterministically.
func TestExportName(t *testing.T) {
	for in, want := range map[string]string{
		"alert_id": "AlertID", "type": "Type", "func": "Func", "": "X", "1st": "X1st",
		"a-b": "AB", "a.b c": "ABC", "价格": "X价格", "émoji": "Émoji", "-": "X",
		"quote\"d": "QuoteD", "x`tick": "XTick", "camelCase": "CamelCase", "__": "X",
	} {
		got := exportName(in)
		if got != want {
			t.Errorf("exportName(%q) = %q, want %q", in, got, want)
		}
		if !token.IsIdentifier(got) || !token.IsExported(got) {
			t.Errorf("exportName(%q) = %q is not an exported identifier", in, got)
		}
	}
}

// TestNamespace proves collisions get numeric suffixes in request order.
func TestNamespace(t *testing.T) {
	ns := newNamespace("Handler")
	got := []string{ns.take("Handler"), ns.take("AB"), ns.take("AB"), ns.take("AB2"), ns.take("AB")}
	if strings.Join(got, " ") != "Handler2 AB AB2 AB22 AB3" {
		t.Fatalf("got %v", got)
	}
}

// TestEachWord holds eachWord to strings.FieldsFunc at the runes that
// cannot be part of a Go identifier, on ASCII, Unicode and invalid UTF-8.
func TestEachWord(t *testing.T) {
	sep := func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }
	for _, s := range []string{"", "a", "_", "alert_id", "__a__b__", "HTTPServer2", "名字-x", "é.1", "a\xffb", "\xff", "tool 0001 ", "x\uFFFDy"} {
		if got, want := words(s), strings.FieldsFunc(s, sep); !slices.Equal(got, want) {
			t.Errorf("words(%q) = %q, want %q", s, got, want)
		}
	}
}
