package ir_test

import (
	"testing"

	"github.com/cetpgen/cetpgen/gen"
)

// TestCLIFlagNames checks the flag names the IR allocates once for the
// generated CLI (testdata/flags): kebab case, members an allOf of the
// input declares and an input reached through "$ref" included; none for
// a name two members share, a name the CLI keeps (timeout, request-id)
// or one that is no flag name.
func TestCLIFlagNames(t *testing.T) {
	ps, l, err := gen.Check(gen.OSSource, []string{"testdata/flags"})
	if err != nil || l.HasErrors() {
		t.Fatalf("check: %v %v", err, l)
	}
	in := ps[0].Tools[0].Input.Graph.Root.Resolved()
	got := map[string]string{}
	for _, p := range in.Props {
		got[p.Name] = p.CLIFlag
	}
	want := map[string]string{
		"fromAllOf": "from-all-of", "dueAt": "due-at", "include_closed_today": "include-closed-today",
		"dup_name": "", "dup-name": "", "request_id": "", "timeout": "", "a b": "", "名前": "",
	}
	for name, w := range want {
		if f, ok := got[name]; !ok || f != w {
			t.Errorf("%q: flag %q (member %v), want %q", name, f, ok, w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("members %v", got)
	}
}
