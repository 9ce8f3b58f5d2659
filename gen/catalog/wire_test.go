package catalog

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/cetpgen/cetpgen/runtime/catalog"
)

// referenceDir is the folder of the real dws payloads copied into
// testdata (see testdata/README.md for their source and licence).
func referenceDir(t *testing.T) string {
	t.Helper()
	ref := filepath.Join("testdata", "dws")
	if _, err := os.Stat(filepath.Join(ref, "v0718_schema_overview.json")); err != nil {
		t.Fatalf("reference payloads missing: %v", err)
	}
	return ref
}

func readJSON(t *testing.T, path string) any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// mapLike are objects keyed by data (flag names, field names), whose keys
// are compared as one wildcard.
var mapLike = map[string]bool{"parameters": true, "field_provenance": true}

func typeName(v any) string {
	switch v.(type) {
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "bool"
	}
	return "null"
}

// shape records the value types seen at every key path of v.
func shape(v any, path string, out map[string]map[string]bool) {
	if out[path] == nil {
		out[path] = map[string]bool{}
	}
	out[path][typeName(v)] = true
	switch x := v.(type) {
	case map[string]any:
		last := path[strings.LastIndex(path, ".")+1:]
		for k, e := range x {
			if mapLike[last] {
				k = "*"
			}
			shape(e, path+"."+k, out)
		}
	case []any:
		for _, e := range x {
			shape(e, path+"[]", out)
		}
	}
}

func shapeOf(v any) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	shape(v, "", out)
	return out
}

// compareShapes requires the same key paths (up to the listed optional
// ones) and, at common paths, only value types the real payload shows.
func compareShapes(t *testing.T, name string, ours, real any, optional ...string) {
	t.Helper()
	o, r := shapeOf(ours), shapeOf(real)
	opt := map[string]bool{}
	for _, p := range optional {
		opt[p] = true
	}
	var problems []string
	for p, types := range o {
		if r[p] == nil {
			if !opt[p] && !underOptional(p, opt) {
				problems = append(problems, "extra key path "+p)
			}
			continue
		}
		for ty := range types {
			if !r[p][ty] && !opt[p+":"+ty] {
				problems = append(problems, "type "+ty+" at "+p)
			}
		}
	}
	for p := range r {
		if o[p] == nil && !opt[p] && !underOptional(p, opt) {
			problems = append(problems, "missing key path "+p)
		}
	}
	sort.Strings(problems)
	if len(problems) > 0 {
		t.Errorf("%s: wire shape differs from dws:\n  %s", name, strings.Join(problems, "\n  "))
	}
}

func underOptional(p string, opt map[string]bool) bool {
	for o := range opt {
		if strings.HasPrefix(p, o+".") || strings.HasPrefix(p, o+"[]") {
			return true
		}
	}
	return false
}

// fixtureCatalog builds the fixture and opens its catalog.
func fixtureCatalog(t *testing.T) *catalog.Catalog {
	t.Helper()
	res, err := Build(fixtureInput())
	if err != nil {
		t.Fatal(err)
	}
	c, err := catalog.Open(res.Data, res.Index)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// query runs q and returns the decoded output.
func query(t *testing.T, c *catalog.Catalog, q catalog.Query) any {
	t.Helper()
	var buf bytes.Buffer
	if err := c.Write(&buf, q); err != nil {
		t.Fatalf("query %+v: %v", q, err)
	}
	var v any
	if err := json.Unmarshal(buf.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// Keys our fixture payloads have or lack that the chosen real payloads do
// not, all optional in dws (reference §2.3): cli_required (cobra
// MarkFlagRequired), interface_type, default, format, enum, example,
// required_when, constraints, aliases, group; plus the provenance entries
// that come with them, and overridden_candidates / interface_reason of the
// matrix.
var leafOptional = []string{
	".parameters.*.cli_required", ".parameters.*.interface_type", ".parameters.*.default",
	".parameters.*.format", ".parameters.*.enum", ".parameters.*.example", ".parameters.*.required_when",
	".parameters.*.interface_description", ".parameters.*.property",
	".parameters.*.field_provenance.*.source_ref", ".parameters.*.field_provenance.*.candidates[].source_ref",
	".parameters.*.field_provenance.*.review_reason", ".parameters.*.field_provenance.*.candidates[].review_reason",
	".field_provenance.*.candidates[].value:null", ".field_provenance.*.value:null",
	".field_provenance.*.candidates[].value.product_id", ".field_provenance.*.candidates[].value.rpc_name",
	".field_provenance.*.value.product_id", ".field_provenance.*.value.rpc_name",
	".field_provenance.*.candidates[].review_reason", ".field_provenance.*.review_reason",
	".field_provenance.*.candidates[].source_ref", ".field_provenance.*.source_ref",
	".parameters.*.field_provenance.*.value:array", ".parameters.*.field_provenance.*.candidates[].value:array",
	".parameters.*.field_provenance.*.value[]", ".parameters.*.field_provenance.*.candidates[].value[]",
	".aliases", ".group", ".constraints",
}

func TestWireLeafMatchesDWS(t *testing.T) {
	ref, c := referenceDir(t), fixtureCatalog(t)
	compareShapes(t, "leaf aitable base delete", query(t, c, catalog.Query{Path: "aitable base delete"}),
		readJSON(t, filepath.Join(ref, "v0718_leaf_aitable_base_delete.json")), leafOptional...)
	compareShapes(t, "leaf report inbox list", query(t, c, catalog.Query{Path: "report inbox list"}),
		readJSON(t, filepath.Join(ref, "v0718_leaf_report_inbox_list.json")), leafOptional...)
	compareShapes(t, "alias report list", query(t, c, catalog.Query{Path: "report list"}),
		readJSON(t, filepath.Join(ref, "v0718_leaf_report_list_alias.json")), leafOptional...)
	compareShapes(t, "--cli-path", query(t, c, catalog.Query{CLIPath: "report list"}),
		readJSON(t, filepath.Join(ref, "v0718_leaf_report_list_alias.json")), leafOptional...)
}

func TestWireCompactLeafMatchesDWS(t *testing.T) {
	ref, c := referenceDir(t), fixtureCatalog(t)
	compareShapes(t, "compact leaf", query(t, c, catalog.Query{Path: "calendar event create", Compact: true}),
		readJSON(t, filepath.Join(ref, "v0718_leaf_calendar_event_create.compact.json")),
		".parameters.*.cli_required", ".parameters.*.enum", ".parameters.*.example", ".parameters.*.default")
}

func TestWireAliasViewsDifferOnlyInTwoKeys(t *testing.T) {
	ref, c := referenceDir(t), fixtureCatalog(t)
	realPrimary, _ := json.Marshal(readJSON(t, filepath.Join(ref, "v0718_leaf_report_inbox_list.json")))
	realAlias, _ := json.Marshal(readJSON(t, filepath.Join(ref, "v0718_leaf_report_list_alias.json")))
	if err := AliasViewProblem(realPrimary, realAlias, "report list"); err != nil {
		t.Fatalf("reference payloads: %v", err)
	}
	primary, _ := json.Marshal(query(t, c, catalog.Query{Path: "report inbox list"}))
	for _, q := range []catalog.Query{{Path: "report list"}, {CLIPath: "report list"}} {
		alias, _ := json.Marshal(query(t, c, q))
		if err := AliasViewProblem(primary, alias, "report list"); err != nil {
			t.Error(err)
		}
	}
	canonical, _ := json.Marshal(query(t, c, catalog.Query{Path: "report.get_received_report_list"}))
	if !bytes.Equal(canonical, primary) {
		t.Error("canonical and primary path queries differ")
	}
}

func TestWireSummariesMatchDWS(t *testing.T) {
	ref, c := referenceDir(t), fixtureCatalog(t)
	summaryOptional := []string{".product.tools[].interface_ref:null", ".product.tools[].interface_reason",
		".product.tools[].aliases", ".tools[].aliases", ".product.agent_source_refs[]",
		".product.field_provenance.*.candidates[].value:string", ".product.field_provenance.*.value:string",
		".product.field_provenance.*.candidates[].value[]", ".product.field_provenance.*.value[]",
		".product.field_provenance.*.candidates[].review_reason", ".product.field_provenance.*.review_reason"}
	compareShapes(t, "product", query(t, c, catalog.Query{Path: "calendar"}),
		readJSON(t, filepath.Join(ref, "v0718_schema_product_calendar.json")), summaryOptional...)
	compareShapes(t, "group", query(t, c, catalog.Query{Path: "calendar event"}),
		readJSON(t, filepath.Join(ref, "v0718_schema_group_calendar_event.json")),
		".tools[].interface_ref:null", ".tools[].interface_reason")
	compareShapes(t, "overview", query(t, c, catalog.Query{}),
		readJSON(t, filepath.Join(ref, "v0718_schema_overview.json")))
	compareShapes(t, "overview via list", query(t, c, catalog.Query{Path: "list"}),
		readJSON(t, filepath.Join(ref, "v0718_schema_overview.json")))
}

func TestWireErrorsMatchDWS(t *testing.T) {
	ref, c := referenceDir(t), fixtureCatalog(t)
	for file, path := range map[string]string{"v0718_error_unknown.json": "calendar nope", "v0718_error_excluded_auth_login.json": "version"} {
		var buf bytes.Buffer
		err := c.Write(&buf, catalog.Query{Path: path})
		qe, ok := err.(*catalog.QueryError)
		if !ok {
			t.Fatalf("%s: error %v is not a QueryError", path, err)
		}
		ours, _ := json.Marshal(qe)
		var v any
		_ = json.Unmarshal(ours, &v)
		real := readJSON(t, filepath.Join(ref, file))
		compareShapes(t, file, v, real)
		want := strings.Replace(mustString(t, real), realPath(file), path, 1)
		if got := mustString(t, v); got != want {
			t.Errorf("%s: got %s, want %s", file, got, want)
		}
	}
}

func realPath(file string) string {
	if strings.Contains(file, "auth_login") {
		return "auth login"
	}
	return "calendar nope"
}

func mustString(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
