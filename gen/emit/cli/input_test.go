package cli_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cetpgen/cetpgen/gen/catalog"
	"github.com/cetpgen/cetpgen/gen/emit/cli"
	rtcatalog "github.com/cetpgen/cetpgen/runtime/catalog"
)

// build builds the catalog of one example spec.
func build(t *testing.T, dir string) (*rtcatalog.Registry, []byte) {
	t.Helper()
	p := load(t, repoRoot+"/specs/"+dir)
	app, err := cli.BuildApp(p)
	if err != nil {
		t.Fatal(err)
	}
	reg, err := cli.RegistryJSON(app)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := catalog.DecodeRegistry(reg, app.Name); err != nil {
		t.Errorf("%s: the emitted registry does not load: %v", dir, err)
	}
	res, err := catalog.Build(cli.Input(p, app))
	if err != nil {
		t.Fatal(err)
	}
	return res.Registry, reg
}

// tool finds a tool of the registry by canonical path.
func tool(t *testing.T, r *rtcatalog.Registry, canonical string) *rtcatalog.ToolSpec {
	t.Helper()
	for _, ts := range r.Tools() {
		if ts.Identity.CanonicalPath == canonical {
			return ts
		}
	}
	t.Fatalf("no tool %s", canonical)
	return nil
}

// TestInputMapping checks what the spec puts into the catalog of a
// high-risk transaction tool: identity from cli.path and aliases, safety
// from the CETP annotations, the interface pinned to (provider id, tool
// name), the reviewed selection with root-prefixed examples, and
// parameters bound to their properties with the schema's facts.
func TestInputMapping(t *testing.T) {
	reg, _ := build(t, "brokerage")
	ts := tool(t, reg, "broker.place_order")
	got := fmt.Sprintf("%s|%s|%v|%s", ts.Identity.CLIPath, ts.Identity.Group, ts.Identity.Aliases, ts.Title)
	if want := "broker order place|order|[broker trade]|Place an order"; got != want {
		t.Errorf("identity %s, want %s", got, want)
	}
	s := ts.Safety
	if got := strings.Join([]string{s.Effect, s.EffectSource, s.Risk, s.Confirmation, s.Idempotency}, "|"); got != "destructive|cetp-annotation|high|user_required|non_idempotent" {
		t.Errorf("safety %s", got)
	}
	if i := ts.Interface; i.Mode != "mcp" || i.Ref == nil || *i.Ref != (rtcatalog.InterfaceRef{ProductID: "com.example.broker.trading", RPCName: "place_order"}) {
		t.Errorf("interface %+v", i)
	}
	if sel := ts.Selection; !sel.Reviewed || sel.AgentSummary != "Submit a buy or sell order after the holder approves it" ||
		!strings.HasPrefix(sel.Examples[0], "cetp-brokerage broker order place --symbol") {
		t.Errorf("selection %+v", sel)
	}
	params := map[string]rtcatalog.ParameterSpec{}
	for _, p := range ts.Parameters {
		params[p.Name] = p
	}
	if p := params["time-in-force"]; p.Property != "time_in_force" || p.Default != "day" || strings.Join(p.Enum, ",") != "day,gtc,ioc" ||
		p.Required || p.Provenance["property"].Source != "versioned_parameter_binding" {
		t.Errorf("--time-in-force %+v", p)
	}
	if p := params["pricing"]; p.Property != "pricing" || !p.Required {
		t.Errorf("--pricing %+v", p)
	}
	if p := params["json"]; p.Property != "" || p.Provenance["property"].Source != "reviewed_mapping_exclusion" {
		t.Errorf("--json %+v", p)
	}
}

// TestInputMappingFormats checks typed facts of list and format flags and
// the product selection.
func TestInputMappingFormats(t *testing.T) {
	reg, _ := build(t, "fitness")
	ts := tool(t, reg, "fitness.list_workouts")
	params := map[string]rtcatalog.ParameterSpec{}
	for _, p := range ts.Parameters {
		params[p.Name] = p
	}
	if p := params["sports"]; p.Type != "array" || strings.Join(p.Enum, ",") != "run,ride,swim" || p.Property != "sports" {
		t.Errorf("--sports %+v", p)
	}
	if p := params["since"]; p.Format != "date-time" || !p.Required || p.Provenance["required"].Source != "typed_parameter_metadata" {
		t.Errorf("--since %+v", p)
	}
	if ts.Identity.Aliases[0] != "fitness workouts" || reg.Products[0].Selection.AgentSummary == "" {
		t.Errorf("aliases %v, product selection %+v", ts.Identity.Aliases, reg.Products[0].Selection)
	}
}
