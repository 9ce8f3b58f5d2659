package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cetpgen/cetpgen/runtime/catalog"
	"github.com/spf13/cobra"
)

// The byte-equality tests rebuild, from the nine real payloads, the
// resolved tools they show (the resolved model is what the projections
// render), encode a catalog of dws's 22 products and 572 commands (the
// real registry in testdata/dws-inputs) holding them, and require every
// query through the schema command to print dws's bytes: stream,
// escaping, indentation, omitted keys, order. One value cannot be
// reproduced: catalog_hash hashes the whole 17.9 MB dws catalog, which is
// not in the inputs; the overview test substitutes dws's value for ours
// and says so.

// summaryFields are the keys of a tool summary (dws ToSummaryPayload).
type summaryFields struct {
	AgentMetadataSource string                `json:"agent_metadata_source"`
	AgentSummary        string                `json:"agent_summary"`
	AgentSummarySource  string                `json:"agent_summary_source"`
	Aliases             []string              `json:"aliases"`
	Availability        string                `json:"availability"`
	AvoidWhen           []string              `json:"avoid_when"`
	CanonicalPath       string                `json:"canonical_path"`
	CLIName             string                `json:"cli_name"`
	CLIPath             string                `json:"cli_path"`
	Confirmation        string                `json:"confirmation"`
	Description         string                `json:"description"`
	DryRun              *catalog.DryRun       `json:"dry_run"`
	Effect              string                `json:"effect"`
	Group               string                `json:"group"`
	Idempotency         string                `json:"idempotency"`
	InterfaceMode       string                `json:"interface_mode"`
	InterfaceReason     string                `json:"interface_reason"`
	InterfaceRef        *catalog.InterfaceRef `json:"interface_ref"`
	MetadataSource      string                `json:"metadata_source"`
	Name                string                `json:"name"`
	PrimaryCLIPath      string                `json:"primary_cli_path"`
	Reviewed            bool                  `json:"reviewed"`
	Risk                string                `json:"risk"`
	Title               string                `json:"title"`
	UseWhen             []string              `json:"use_when"`
}

func (s *summaryFields) tool(product string) catalog.ToolSpec {
	return catalog.ToolSpec{
		Identity: catalog.IdentitySpec{ProductID: product, Name: s.Name, CLIName: s.CLIName, CanonicalPath: s.CanonicalPath,
			CLIPath: s.CLIPath, PrimaryCLIPath: s.PrimaryCLIPath, Group: s.Group, Aliases: s.Aliases, Source: SourceRegistry},
		Title: s.Title, Description: s.Description, MetadataSource: s.MetadataSource, DryRun: s.DryRun,
		Safety: catalog.SafetySpec{Effect: s.Effect, Risk: s.Risk, Confirmation: s.Confirmation, Idempotency: s.Idempotency},
		Interface: catalog.InterfaceSpec{Mode: s.InterfaceMode, Availability: s.Availability, Ref: s.InterfaceRef,
			Reason: s.InterfaceReason},
		Selection: catalog.SelectionSpec{AgentSummary: s.AgentSummary, AgentSummarySource: s.AgentSummarySource,
			UseWhen: s.UseWhen, AvoidWhen: s.AvoidWhen, Reviewed: s.Reviewed, MetadataSource: s.AgentMetadataSource},
	}
}

func refBytes(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(referenceDir(t), name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func decodeInto(t *testing.T, data []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatal(err)
	}
}

// dwsResolved is the registry rebuilt from the payloads.
func dwsResolved(t *testing.T) (*catalog.Registry, string) {
	t.Helper()
	var overview struct {
		AgentMetadata     catalog.AgentMetadata     `json:"agent_metadata"`
		InterfaceMetadata catalog.InterfaceMetadata `json:"interface_metadata"`
		Products          []struct {
			AgentSummary string `json:"agent_summary"`
			ID           string `json:"id"`
			ToolCount    int    `json:"tool_count"`
		} `json:"products"`
		SurfaceHash string `json:"surface_hash"`
	}
	decodeInto(t, refBytes(t, "v0718_schema_overview.json"), &overview)
	known := dwsKnownTools(t)
	reg := &catalog.Registry{Header: catalog.Header{AgentMetadata: overview.AgentMetadata, InterfaceMetadata: overview.InterfaceMetadata}}
	registry, err := DecodeRegistry(readInput(t, RegistryFile), "dws")
	if err != nil {
		t.Fatal(err)
	}
	for i, rp := range registry.Products {
		op := overview.Products[i]
		if op.ID != rp.ID || op.ToolCount != len(rp.Tools) {
			t.Fatalf("overview product %s/%d vs registry %s/%d", op.ID, op.ToolCount, rp.ID, len(rp.Tools))
		}
		p := catalog.ProductSpec{ID: rp.ID, Selection: catalog.SelectionSpec{AgentSummary: op.AgentSummary}}
		if rp.ID == "calendar" {
			p = dwsCalendarProduct(t)
		}
		for _, c := range rp.Tools {
			tool, ok := known[c.CanonicalPath]
			if !ok {
				tool = catalog.ToolSpec{Identity: catalog.IdentitySpec{ProductID: rp.ID, CanonicalPath: c.CanonicalPath,
					CLIPath: c.CLIPath, PrimaryCLIPath: c.CLIPath, Aliases: c.Aliases, Source: SourceRegistry}}
			}
			p.Tools = append(p.Tools, tool)
		}
		// The resolver delivers tools in canonical order (Bind sorts them).
		slices.SortFunc(p.Tools, func(a, b catalog.ToolSpec) int {
			return strings.Compare(a.Identity.CanonicalPath, b.Identity.CanonicalPath)
		})
		reg.Products = append(reg.Products, p)
	}
	return reg, overview.SurfaceHash
}

// dwsKnownTools are the resolved tools the payloads show: two full leaves,
// calendar's twenty summaries, and create_calendar_event completed with
// its compact leaf (parameters, constraints, examples).
func dwsKnownTools(t *testing.T) map[string]catalog.ToolSpec {
	known := map[string]catalog.ToolSpec{}
	var product struct {
		Product struct {
			Tools []summaryFields `json:"tools"`
		} `json:"product"`
	}
	decodeInto(t, refBytes(t, "v0718_schema_product_calendar.json"), &product)
	for _, s := range product.Product.Tools {
		known[s.CanonicalPath] = s.tool("calendar")
	}
	var compact struct {
		Constraints *catalog.Constraints             `json:"constraints"`
		Examples    []string                         `json:"examples"`
		Parameters  map[string]catalog.ParameterSpec `json:"parameters"`
	}
	decodeInto(t, refBytes(t, "v0718_leaf_calendar_event_create.compact.json"), &compact)
	create := known["calendar.create_calendar_event"]
	create.Constraints, create.Selection.Examples = compact.Constraints, compact.Examples
	for _, name := range slices.Sorted(maps.Keys(compact.Parameters)) {
		p := compact.Parameters[name]
		p.Name = name
		create.Parameters = append(create.Parameters, p)
	}
	known[create.Identity.CanonicalPath] = create
	for _, f := range []string{"v0718_leaf_aitable_base_delete.json", "v0718_leaf_report_inbox_list.json"} {
		var tool catalog.ToolSpec
		decodeInto(t, refBytes(t, f), &tool)
		known[tool.Identity.CanonicalPath] = tool
	}
	return known
}

// dwsCalendarProduct is the calendar product of the product payload.
func dwsCalendarProduct(t *testing.T) catalog.ProductSpec {
	var product struct {
		Product struct {
			AgentMetadataSource string                             `json:"agent_metadata_source"`
			AgentSourceRefs     []string                           `json:"agent_source_refs"`
			AgentSummary        string                             `json:"agent_summary"`
			AgentSummarySource  string                             `json:"agent_summary_source"`
			AvoidWhen           []string                           `json:"avoid_when"`
			Description         string                             `json:"description"`
			FieldProvenance     map[string]catalog.FieldProvenance `json:"field_provenance"`
			ID                  string                             `json:"id"`
			Name                string                             `json:"name"`
			Runtime             bool                               `json:"runtime"`
			UseWhen             []string                           `json:"use_when"`
		} `json:"product"`
	}
	decodeInto(t, refBytes(t, "v0718_schema_product_calendar.json"), &product)
	p := product.Product
	return catalog.ProductSpec{ID: p.ID, Name: p.Name, Description: p.Description, Runtime: p.Runtime,
		Provenance: p.FieldProvenance, Selection: catalog.SelectionSpec{AgentSummary: p.AgentSummary,
			AgentSummarySource: p.AgentSummarySource, UseWhen: p.UseWhen, AvoidWhen: p.AvoidWhen,
			SourceRefs: p.AgentSourceRefs, MetadataSource: p.AgentMetadataSource}}
}

// dwsCatalog encodes the rebuilt registry and opens it.
func dwsCatalog(t *testing.T) *catalog.Catalog {
	t.Helper()
	reg, surface := dwsResolved(t)
	data, index, err := catalog.Encode(reg, surface)
	if err != nil {
		t.Fatal(err)
	}
	c, err := catalog.Open(data, index)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// runSchema runs `dws schema args…` through catalog.NewCommand on a root
// named dws and returns stdout, stderr and the error.
func runSchema(c *catalog.Catalog, args ...string) (string, string, error) {
	root := &cobra.Command{Use: "dws", SilenceErrors: true, SilenceUsage: true}
	root.AddCommand(catalog.NewCommand(func() (*catalog.Catalog, error) { return c, nil }))
	var out, errb bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errb)
	root.SetArgs(append([]string{"schema"}, args...))
	err := root.Execute()
	return out.String(), errb.String(), err
}

func TestWireBytesEqualDWS(t *testing.T) {
	c := dwsCatalog(t)
	cases := []struct {
		file string
		args []string
	}{
		{"v0718_schema_product_calendar.json", []string{"calendar"}},
		{"v0718_schema_group_calendar_event.json", []string{"calendar event"}},
		{"v0718_leaf_aitable_base_delete.json", []string{"aitable base delete"}},
		{"v0718_leaf_aitable_base_delete.json", []string{"aitable.base_delete"}},
		{"v0718_leaf_aitable_base_delete.json", []string{"dws aitable base delete"}},
		{"v0718_leaf_report_inbox_list.json", []string{"report inbox list"}},
		{"v0718_leaf_report_inbox_list.json", []string{"report.get_received_report_list"}},
		{"v0718_leaf_report_inbox_list.json", []string{"--cli-path", "report inbox list"}},
		{"v0718_leaf_report_inbox_list.json", []string{"--cli-path", "report.get_received_report_list"}},
		{"v0718_leaf_report_list_alias.json", []string{"report list"}},
		{"v0718_leaf_report_list_alias.json", []string{"--cli-path", "report list"}},
		{"v0718_leaf_report_list_alias.json", []string{"--cli-path", "dws report list"}},
		{"v0718_leaf_calendar_event_create.compact.json", []string{"calendar event create", "--compact"}},
		{"v0718_leaf_calendar_event_create.compact.json", []string{"calendar.create_calendar_event", "--compact"}},
		{"v0718_leaf_calendar_event_create.compact.json", []string{"dws calendar event create", "--compact"}},
		{"v0718_schema_group_calendar_event.json", []string{"--cli-path", "calendar event"}},
	}
	for _, tc := range cases {
		out, errs, err := runSchema(c, tc.args...)
		if err != nil || errs != "" {
			t.Errorf("schema %q: %v, stderr %q", tc.args, err, errs)
			continue
		}
		if want := string(refBytes(t, tc.file)); out != want {
			t.Errorf("schema %q: bytes differ from %s at %s", tc.args, tc.file, firstDiff(out, want))
		}
	}
}

// The overview equals dws's byte for byte except the value of
// catalog_hash (see above), which is substituted.
func TestWireOverviewBytesEqualDWS(t *testing.T) {
	c := dwsCatalog(t)
	want := string(refBytes(t, "v0718_schema_overview.json"))
	var ref struct {
		CatalogHash string `json:"catalog_hash"`
	}
	decodeInto(t, []byte(want), &ref)
	for _, args := range [][]string{nil, {"list"}, {"dws"}} {
		out, errs, err := runSchema(c, args...)
		if err != nil || errs != "" {
			t.Fatalf("schema %q: %v %s", args, err, errs)
		}
		var got struct {
			CatalogHash string `json:"catalog_hash"`
		}
		decodeInto(t, []byte(out), &got)
		out = strings.Replace(out, `"catalog_hash": "`+got.CatalogHash+`"`, `"catalog_hash": "`+ref.CatalogHash+`"`, 1)
		if out != want {
			t.Errorf("schema %q: overview differs at %s", args, firstDiff(out, want))
		}
	}
}

func TestWireErrorBytesEqualDWS(t *testing.T) {
	c := dwsCatalog(t)
	for file, args := range map[string][]string{
		"v0718_error_unknown.json":             {"calendar nope"},
		"v0718_error_excluded_auth_login.json": {"auth login"},
	} {
		out, errs, err := runSchema(c, args...)
		var qe *catalog.QueryError
		if !errors.As(err, &qe) || qe.ExitCode() != 3 {
			t.Errorf("%q: error %v, want a QueryError with exit code 3", args, err)
		}
		if out != "" || errs != string(refBytes(t, file)) {
			t.Errorf("%q: stdout %q, stderr %q, want stderr = %s", args, out, errs, file)
		}
	}
}

// Every malformed query is a structured error on stderr.
func TestWireBadQueriesAreStructured(t *testing.T) {
	c := dwsCatalog(t)
	cases := []struct {
		args []string
		want string
		code int
	}{
		{[]string{"calendar", "event", "create"}, `{
  "error": {
    "category": "internal",
    "code": 5,
    "message": "accepts at most 1 arg(s), received 3"
  }
}
`, 5},
		{[]string{"--all", "calendar"}, `"message": "--all cannot be combined with a schema path"`, 3},
		{[]string{"calendar", "--cli-path", "calendar event"}, `"message": "--cli-path cannot be combined with a schema path"`, 3},
		{[]string{"--cli-path", "calendar nope"}, `"message": "unknown runtime schema path \"calendar nope\""`, 3},
		{[]string{"--nope"}, `"message": "unknown flag: --nope"`, 5},
		{[]string{"dws calendar nope"}, `"message": "unknown runtime schema path \"calendar nope\""`, 3},
	}
	for _, tc := range cases {
		out, errs, err := runSchema(c, tc.args...)
		var qe *catalog.QueryError
		if !errors.As(err, &qe) || qe.ExitCode() != tc.code || out != "" || !strings.Contains(errs, tc.want) {
			t.Errorf("%q: err %v, stdout %q, stderr %q; want exit %d and %s", tc.args, err, out, errs, tc.code, tc.want)
		}
	}
}

// --all holds every tool the payloads cover exactly as dws's --all does:
// the leaf's bytes, indented at their depth (products[].tools[], four
// levels down) as MarshalIndent of the whole export writes them; with
// --compact, the compact leaf's.
func TestWireAllBytesEqualDWS(t *testing.T) {
	c := dwsCatalog(t)
	for _, tc := range []struct {
		compact bool
		files   []string
	}{
		{false, []string{"v0718_leaf_aitable_base_delete.json", "v0718_leaf_report_inbox_list.json"}},
		{true, []string{"v0718_leaf_calendar_event_create.compact.json"}},
	} {
		args := []string{"--all"}
		if tc.compact {
			args = append(args, "--compact")
		}
		out, errs, err := runSchema(c, args...)
		if err != nil || errs != "" {
			t.Fatalf("--all: %v %s", err, errs)
		}
		for _, f := range tc.files {
			leaf := bytes.TrimSuffix(refBytes(t, f), []byte("\n"))
			want := "\n        " + strings.ReplaceAll(string(leaf), "\n", "\n        ")
			if strings.Count(out, want) != 1 {
				t.Errorf("%q does not hold %s once, re-indented at depth 4", args, f)
			}
		}
		var top map[string]json.RawMessage
		decodeInto(t, []byte(out), &top)
		var indented bytes.Buffer
		_ = json.Indent(&indented, []byte(mustCompact(t, out)), "", "  ")
		if !strings.HasSuffix(out, "}\n") || indented.String()+"\n" != out {
			t.Errorf("%q is not MarshalIndent's layout throughout", args)
		}
	}
}

func mustCompact(t *testing.T, s string) string {
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// firstDiff shows where got and want first differ.
func firstDiff(got, want string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	lo := max(0, i-60)
	return fmt.Sprintf("byte %d:\n  got  %q\n  want %q", i, got[lo:min(len(got), i+60)], want[lo:min(len(want), i+60)])
}
