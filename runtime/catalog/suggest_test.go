package catalog

import (
	"strings"
	"testing"
)

// oneProduct is a catalog of the product "cal" alone, as a generated CLI
// has.
func oneProduct(t *testing.T) *Catalog {
	t.Helper()
	r := &Registry{Products: []ProductSpec{{ID: "cal", Name: "Calendar", Description: "Calendar", Runtime: true,
		Tools: []ToolSpec{testTool("cal", "event", "create"), testTool("cal", "event", "list", "cal ls")}}}}
	data, index, err := Encode(r, "sha256:surface")
	if err != nil {
		t.Fatal(err)
	}
	c, err := Open(data, index)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestPathAsMeant checks the product rule: as written, without the root
// name, then with the product of a one-product catalog put before it; a
// catalog of several products never guesses one.
func TestPathAsMeant(t *testing.T) {
	one := oneProduct(t)
	for _, c := range []struct{ in, root, want string }{
		{"cal event create", "cetp-cal", "cal event create"},
		{"event create", "cetp-cal", "cal event create"},
		{"cetp-cal event  create", "cetp-cal", "cal event create"},
		{"cetp-cal cal event", "cetp-cal", "cal event"},
		{"event", "cetp-cal", "cal event"},
		{"cetp-cal", "cetp-cal", ""},
		{"ls", "", "cal ls"},
		{"event nope", "cetp-cal", "event nope"},
		{"cetp-cal nope", "cetp-cal", "nope"},
	} {
		if got := one.PathAsMeant(c.in, c.root); got != c.want {
			t.Errorf("%q (root %q): %q, want %q", c.in, c.root, got, c.want)
		}
	}
	two, _, _ := testCatalog(t)
	if got := two.PathAsMeant("event create", "x"); got != "event create" {
		t.Errorf("two products: %q", got)
	}
	if _, err := one.Payload(Query{Path: "event create", Root: "cetp-cal"}); err != nil {
		t.Errorf("query without the product: %v", err)
	}
}

// TestSuggest checks the near paths offered for a path that names
// nothing: a typo, a transposition, a missing product, a last word alone.
func TestSuggest(t *testing.T) {
	one := oneProduct(t)
	for in, want := range map[string]string{
		"cal event craete": "cal event create",
		"cal evnt":         "cal event",
		"event lst":        "cal event list",
		"cal.create_evnt":  "cal.create_event",
		"create":           "cal event create",
		"cla":              "cal",
		"nothing near":     "",
	} {
		if got := strings.Join(one.Suggest(in), "|"); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
	if got := strings.Join(one.Suggest("cal event lis"), "|"); got != "cal event list" {
		t.Errorf("nearest first: %q", got)
	}
}
