package catalog

import (
	"testing"
)

func TestAnnotationSafety(t *testing.T) {
	cases := []struct {
		a                        Annotations
		effect, risk, conf, idem string
	}{
		{Annotations{Effect: "read", Risk: "low", Idempotent: true, Confirmation: "never"}, "read", "low", "not_required", "idempotent"},
		{Annotations{Effect: "create", Risk: "moderate", Confirmation: "provider_policy"}, "write", "medium", "user_required", "non_idempotent"},
		{Annotations{Effect: "update", Risk: "low", Destructive: true, Confirmation: "always"}, "destructive", "low", "user_required", "non_idempotent"},
		{Annotations{Effect: "delete", Risk: "high", Idempotent: true, Confirmation: "always"}, "destructive", "high", "user_required", "idempotent"},
		{Annotations{Effect: "transaction", Risk: "high", Confirmation: "always"}, "destructive", "high", "user_required", "non_idempotent"},
	}
	for _, c := range cases {
		e, r, cf, i := annotationSafety(&c.a)
		if e != c.effect || r != c.risk || cf != c.conf || i != c.idem {
			t.Errorf("%+v -> %s %s %s %s", c.a, e, r, cf, i)
		}
	}
}

func TestMatrixOverridesALowerRankedRef(t *testing.T) {
	res, err := Build(fixtureInput())
	if err != nil {
		t.Fatal(err)
	}
	tool := findTool(res.Registry, "calendar.list_calendar_events")
	p := tool.Provenance["interface_ref"]
	if tool.Interface.Mode != ModeComposite || tool.Interface.Ref != nil || p.Resolution != matrixSource ||
		len(p.OverriddenCandidates) != 1 || p.OverriddenCandidates[0].Precedence != PrecImported {
		t.Fatalf("composite over a pinned ref: %+v %+v", tool.Interface, p)
	}
	create := findTool(res.Registry, "calendar.create_calendar_event")
	if create.Safety.Effect != EffectWrite || create.Safety.EffectSource != "cetp-annotation" || create.Provenance["risk"].Precedence != PrecImported {
		t.Fatalf("CETP annotations must win over inference: %+v", create.Safety)
	}
	del := findTool(res.Registry, "aitable.base_delete")
	if del.Safety.EffectSource != "agent-hint" || del.Interface.Ref == nil || del.Interface.Ref.RPCName != "delete_base" {
		t.Fatalf("reviewed metadata and the pinned ref: %+v %+v", del.Safety, del.Interface)
	}
}

func TestParameterResolution(t *testing.T) {
	res, err := Build(fixtureInput())
	if err != nil {
		t.Fatal(err)
	}
	params := map[string]int{}
	create := findTool(res.Registry, "calendar.create_calendar_event")
	for i, p := range create.Parameters {
		params[p.Name] = i
	}
	title := create.Parameters[params["title"]]
	if title.Property != "summary" || !title.Required || !title.CLIRequired || title.Provenance["property"].Precedence != PrecVersionedBinding {
		t.Errorf("title: %+v", title)
	}
	start := create.Parameters[params["start"]]
	if start.Format != "date-time" || !start.Required || start.Provenance["required"].Precedence != PrecMCPMetadata {
		t.Errorf("start: %+v", start)
	}
	rt := create.Parameters[params["recurrence-type"]]
	if len(rt.Enum) != 2 || rt.Property != "recurrenceType" || rt.Provenance["property"].Source != "flag_name_inference" {
		t.Errorf("recurrence-type: %+v", rt)
	}
	if c := create.Constraints; c == nil || len(c.RequireTogether) != 1 || c.RequireTogether[0][0] != "recurrence-interval" {
		t.Errorf("cobra flag groups as constraints: %+v", c)
	}
	reason := findTool(res.Registry, "aitable.base_delete").Parameters[1]
	if reason.Name != "reason" || reason.Property != "" || reason.Provenance["property"].Precedence != PrecMappingExclusion {
		t.Errorf("mapping exclusion: %+v", reason)
	}
}
