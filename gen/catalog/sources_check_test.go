package catalog

import (
	"testing"

	"github.com/cetpgen/cetpgen/runtime/catalog"
)

func withHistory(in *Input) *Input {
	b := in.Bindings
	b.Baseline = &BindingsBaseline{Manifest: "fixture-v1", SHA256: "sha256:" + "ab12cd34ab12cd34ab12cd34ab12cd34ab12cd34ab12cd34ab12cd34ab12cd34",
		Reason: "reviewed", Reviewed: true}
	b.Removals = map[string]BindingRemoval{
		"calendar.create_calendar_event --summary": {Reason: "renamed to --title", ReplacedBy: "calendar.create_calendar_event --title", Reviewed: true}}
	b.Corrections = map[string]BindingCorrection{
		"report.get_received_report_list --start": {OldProperty: "start", NewProperty: "startTime", Reason: "the RPC says startTime", Reviewed: true}}
	return in
}

func TestBindingHistoryIsCarried(t *testing.T) {
	res, err := Build(withHistory(fixtureInput()))
	if err != nil {
		t.Fatal(err)
	}
	p := findTool(res.Registry, "report.get_received_report_list").Parameters
	var start catalog.ParameterSpec
	for _, x := range p {
		if x.Name == "start" {
			start = x
		}
	}
	if got := start.Provenance["property"].ReviewReason; got != "the RPC says startTime" {
		t.Errorf("a corrected binding's provenance review_reason = %q, want the correction's reason", got)
	}
}

func TestBindingHistoryGates(t *testing.T) {
	cases := []struct {
		name string
		edit func(b *Bindings)
		want string
	}{
		{"removed but still bound", func(b *Bindings) {
			b.Removals["calendar.create_calendar_event --title"] = BindingRemoval{Reason: "x", Reviewed: true}
		}, `removal "calendar.create_calendar_event --title" names a flag that is still bound or excluded`},
		{"removed but still visible", func(b *Bindings) {
			b.Removals["calendar.create_calendar_event --attendees"] = BindingRemoval{Reason: "x", Reviewed: true}
		}, `still accepts as a visible parameter`},
		{"replaced by nothing", func(b *Bindings) {
			b.Removals["calendar.create_calendar_event --summary"] = BindingRemoval{Reason: "x", ReplacedBy: "calendar.create_calendar_event --name", Reviewed: true}
		}, `which is not an active binding`},
		{"unreviewed removal", func(b *Bindings) {
			b.Removals["calendar.create_calendar_event --summary"] = BindingRemoval{Reason: "x"}
		}, `needs a reason and reviewed: true`},
		{"removal of an unknown tool", func(b *Bindings) {
			b.Removals["calendar.ghost --x"] = BindingRemoval{Reason: "x", Reviewed: true}
		}, `removals key "calendar.ghost --x" names a tool that is not in the effective registry`},
		{"correction disagrees", func(b *Bindings) {
			b.Corrections["report.get_received_report_list --start"] = BindingCorrection{OldProperty: "a", NewProperty: "startAt", Reason: "x", Reviewed: true}
		}, `says "startAt", but the binding is "startTime"`},
		{"correction of an unbound flag", func(b *Bindings) {
			b.Corrections["report.get_received_report_list --size"] = BindingCorrection{OldProperty: "a", NewProperty: "b", Reason: "x", Reviewed: true}
		}, `names a flag that is not bound`},
		{"bad baseline", func(b *Bindings) { b.Baseline.SHA256 = "9008afd7" }, `baseline needs`},
		{"mapping exclusion of an unknown tool", func(b *Bindings) {
			b.MappingExclusions["calendar.ghost --x"] = "no"
		}, `mapping_exclusions key "calendar.ghost --x" names a tool`},
		{"bound and excluded", func(b *Bindings) {
			b.MappingExclusions["calendar.create_calendar_event --title"] = "no"
		}, `is both bound and excluded`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := withHistory(fixtureInput())
			c.edit(in.Bindings)
			wantBuildError(t, in, c.want)
		})
	}
}

func TestMetadataRuntimeGateAndCLIPath(t *testing.T) {
	set := func(edit func(m *ToolMetadata)) *Input {
		in := fixtureInput()
		m := in.Metadata[0].Tools["aitable.base_delete"]
		edit(&m)
		in.Metadata[0].Tools["aitable.base_delete"] = m
		return in
	}
	ok := set(func(m *ToolMetadata) { m.RuntimeGate, m.CLIPath = "confirm_delete", "aitable base delete" })
	if _, err := Build(ok); err != nil {
		t.Fatal(err)
	}
	wantBuildError(t, set(func(m *ToolMetadata) { m.RuntimeGate = "none" }),
		`aitable.base_delete: runtime_gate "none" but confirmation "user_required"`)
	wantBuildError(t, set(func(m *ToolMetadata) { m.RuntimeGate = "ask" }), `runtime_gate "ask" is not one of`)
	wantBuildError(t, set(func(m *ToolMetadata) { m.CLIPath = "aitable delete" }),
		`cli_path "aitable delete" is neither the primary path "aitable base delete" nor an alias`)
}

// The real dws bindings decode strictly, every section kept.
func TestDWSBindingsDecodeStrictly(t *testing.T) {
	var b Bindings
	if err := catalog.DecodeStrict(readInput(t, BindingsFile), &b); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range b.Tools {
		n += len(m)
	}
	if b.Version != 3 || b.Baseline == nil || !b.Baseline.Reviewed || len(b.Tools) != 318 || n != 663 ||
		len(b.Removals) != 8 || len(b.Corrections) != 2 || len(b.MappingExclusions) != 521 {
		t.Fatalf("decoded %d tools / %d bindings, %d removals, %d corrections, %d mapping exclusions, baseline %+v",
			len(b.Tools), n, len(b.Removals), len(b.Corrections), len(b.MappingExclusions), b.Baseline)
	}
	if r := b.Removals["contact.get_dept_info_by_dept_id --id"]; r.ReplacedBy != "contact.get_dept_info_by_dept_id --dept" {
		t.Errorf("removal decoded as %+v", r)
	}
}
