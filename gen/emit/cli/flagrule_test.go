package cli_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cetpgen/cetpgen/gen/emit/cli"
	"github.com/cetpgen/cetpgen/runtime/cetpcli"
)

// TestFlagRule checks the flag of every property of the flagrule spec:
// name, kind, list, enum and default, and the properties that get none.
func TestFlagRule(t *testing.T) {
	app, err := cli.BuildApp(load(t, "testdata/specs/flagrule"))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range app.Commands[1].Flags {
		got[f.Property] = fmt.Sprintf("--%s %s list=%v enum=%s default=%q", f.Name, f.Kind, f.List, strings.Join(f.Enum, "|"), f.Default)
	}
	want := map[string]string{
		"plain_text":    `--plain-text string list=false enum= default=""`,
		"count":         `--count integer list=false enum= default="3"`,
		"ratio":         `--ratio number list=false enum= default="0.5"`,
		"enabled":       `--enabled boolean list=false enum= default="true"`,
		"color":         `--color enum list=false enum=red|green default=""`,
		"level":         `--level enum list=false enum=low|high default=""`,
		"nullable_note": `--nullable-note string list=false enum= default=""`,
		"when":          `--when string list=false enum= default=""`,
		"tags":          `--tags string list=true enum= default=""`,
		"levels":        `--levels enum list=true enum=low|high default=""`,
		"sizes":         `--sizes integer list=true enum= default=""`,
		"days":          `--days string list=true enum= default=""`,
		"filter":        `--filter json list=false enum= default=""`,
		"choice":        `--choice json list=false enum= default=""`,
		"fixed":         `--fixed string list=false enum= default=""`,
		"objects":       `--objects json list=false enum= default=""`,
		"anything":      `--anything json list=false enum= default=""`,
		"camelCase":     `--camel-case string list=false enum= default=""`,
		"Upper":         `--upper string list=false enum= default=""`,
		"numbered":      `--numbered integer list=false enum= default=""`,
		"maybe_level":   `--maybe-level enum list=false enum=low|high default=""`,
		"anchored":      `--anchored enum list=false enum=s|m|l default=""`,
		"bounded":       `--bounded integer list=false enum= default=""`,
	}
	for prop, w := range want {
		if got[prop] != w {
			t.Errorf("%s: %s, want %s", prop, got[prop], w)
		}
	}
	for _, prop := range []string{"a b", "名前", "json", "socket", "dup_name", "dup-name", "trailing_", "9lives"} {
		if g, ok := got[prop]; ok {
			t.Errorf("%s has a flag: %s; it is reachable through --json only", prop, g)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d flags, want %d", len(got), len(want))
	}
	if r := strings.Join(app.Commands[1].Required, ","); r != "a b,plain_text" {
		t.Errorf("required %q", r)
	}
	checkUsage(t, app.Commands[1].Flags)
}

// checkUsage checks the help of a few flags: the description (through a
// $ref and an anchor too), else the property's name, "required" first
// among the hints.
func checkUsage(t *testing.T, flags []cetpcli.Flag) {
	t.Helper()
	want := map[string]string{
		"plain-text": "Free text, <b>as is</b>. (required)",
		"level":      "The level to use. (one of: low, high)",
		"anchored":   "A size from the anchor. (one of: s, m, l)",
		"days":       "days (format date; repeat the flag for each item)",
		"filter":     "filter (a JSON value)",
	}
	for _, f := range flags {
		if w, ok := want[f.Name]; ok && f.Usage != w {
			t.Errorf("--%s usage %q, want %q", f.Name, f.Usage, w)
		}
	}
}

// TestPaths checks the default path, a cobra alias and a compatibility
// leaf, and that paths that cannot share one tree fail generation.
func TestPaths(t *testing.T) {
	p := load(t, "testdata/specs/flagrule")
	app, err := cli.BuildApp(p)
	if err != nil {
		t.Fatal(err)
	}
	if c := app.Commands[1]; c.Path != "flags mixed-inputs" || c.Canonical != "flags.mixed_inputs" {
		t.Errorf("default path %q, canonical %q", c.Path, c.Canonical)
	}
	root := cetpcli.NewRoot(app, cetpcli.Env{})
	get, _, _ := root.Find([]string{"flags", "thing", "get"})
	compat, _, _ := root.Find([]string{"flags", "get-thing"})
	if strings.Join(get.Aliases, ",") != "show" || compat == get || compat.Name() != "get-thing" {
		t.Errorf("aliases %v, compatibility leaf %q", get.Aliases, compat.CommandPath())
	}
	p.Tools[1].CLI = nil // mixed_inputs keeps its default path "flags mixed-inputs"
	p.Tools[0].CLI.Aliases = []string{"flags mixed-inputs all"}
	if _, err := cli.BuildApp(p); err == nil || !strings.Contains(err.Error(), "is a group of") {
		t.Errorf("leaf that is a group: %v", err)
	}
}
