package catalog

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/cetpgen/cetpgen/runtime/catalog"
	"github.com/spf13/cobra"
)

// wantBuildError builds in and requires an error containing want.
func wantBuildError(t *testing.T, in *Input, want string) {
	t.Helper()
	_, err := Build(in)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("Build error = %v, want one containing %q", err, want)
	}
}

func addTool(in *Input, product string, c CommandSpec) {
	for i := range in.Registry.Products {
		if in.Registry.Products[i].ID == product {
			_ = c.normalize(product, SourceRegistry)
			in.Registry.Products[i].Tools = append(in.Registry.Products[i].Tools, c)
		}
	}
}

func TestGatePhantomPath(t *testing.T) {
	in := fixtureInput()
	addTool(in, "calendar", CommandSpec{CanonicalPath: "calendar.ghost", CLIPath: "calendar event ghost"})
	wantBuildError(t, in, "phantom or stale primary path")
}

func TestGatePhantomAlias(t *testing.T) {
	in := fixtureInput()
	in.Registry.Products[1].Tools[0].Aliases = []string{"calendar new"}
	wantBuildError(t, in, "phantom alias")
}

func TestGateUnboundPublicLeaf(t *testing.T) {
	in := fixtureInput()
	root := in.Root
	in.Root = func() *cobra.Command {
		r := root()
		r.AddCommand(leaf("login", "Log in"))
		return r
	}
	wantBuildError(t, in, `public runnable leaf "login" is neither in the registry nor excluded`)
}

func TestGateAliasCollision(t *testing.T) {
	in := fixtureInput()
	in.Registry.Products[1].Tools[1].Aliases = []string{"report list"}
	wantBuildError(t, in, `path collision: "report list"`)
}

func TestGateAliasOfAnotherCommand(t *testing.T) {
	in := fixtureInput()
	in.Registry.Products[1].Tools[1].Aliases = []string{"report inbox list"}
	wantBuildError(t, in, "path collision")
	in = fixtureInput()
	in.Registry.Products[1].Tools[1].Aliases = []string{"calendar event create"}
	wantBuildError(t, in, "path collision")
}

func TestGateAliasDifferentContract(t *testing.T) {
	in := fixtureInput()
	in.Registry.Products[0].Tools[0].Aliases = []string{"report list"}
	in.Registry.Products[2].Tools[0].Aliases = nil
	wantBuildError(t, in, "another flag contract")
}

func TestGatePrefixExclusion(t *testing.T) {
	in := fixtureInput()
	in.Exclusions = append(in.Exclusions, Exclusion{CLIPath: "calendar event", Reason: "hide all events", Reviewed: true})
	wantBuildError(t, in, `exclusion "calendar event" is a prefix of other commands`)
}

func TestGateWildcardExclusion(t *testing.T) {
	in := fixtureInput()
	in.Exclusions = append(in.Exclusions, Exclusion{CLIPath: "completion *", Reason: "all shells", Reviewed: true})
	wantBuildError(t, in, "not one exact CLI path")
}

func TestGateStaleAndUnreviewedExclusions(t *testing.T) {
	in := fixtureInput()
	in.Exclusions = append(in.Exclusions, Exclusion{CLIPath: "calendar event list", Reason: "r", Reviewed: true})
	wantBuildError(t, in, `stale exclusion "calendar event list"`)
	in = fixtureInput()
	in.Exclusions[0].Reviewed = false
	wantBuildError(t, in, "must be reviewed and carry a reason")
	in = fixtureInput()
	in.Exclusions = append(in.Exclusions, Exclusion{CLIPath: "secret", Reason: "r", Reviewed: true})
	wantBuildError(t, in, `exclusion "secret" names a hidden`)
}

func TestGateManualAdditions(t *testing.T) {
	in := fixtureInput()
	in.Exclusions = in.Exclusions[1:]
	in.Additions = []ManualAddition{{CanonicalPath: "cli.version", CLIPath: "version", Reason: "reviewed local tool", Reviewed: true}}
	res, err := Build(in)
	if err != nil {
		t.Fatal(err)
	}
	if res.Bound.ByCanonical["cli.version"].Spec.Source != SourceManual {
		t.Fatal("manual addition not merged")
	}
	in.Additions = append(in.Additions, ManualAddition{CanonicalPath: "cli.v2", CLIPath: "version", Reason: "again", Reviewed: true})
	wantBuildError(t, in, `path collision: "version"`)
	in.Additions = []ManualAddition{{CanonicalPath: "calendar.create_calendar_event", CLIPath: "version", Reason: "r", Reviewed: true}}
	wantBuildError(t, in, "is claimed by")
	in.Additions = []ManualAddition{{CanonicalPath: "cli.version", CLIPath: "version", Reviewed: true}}
	wantBuildError(t, in, "must be reviewed and carry a reason")
}

func TestGateNativeAnnotation(t *testing.T) {
	in := fixtureInput()
	root := in.Root
	in.Root = func() *cobra.Command {
		r := root()
		c, _, _ := r.Find([]string{"calendar", "event", "list"})
		c.Annotations = map[string]string{AnnotationCanonical: "calendar.other"}
		return r
	}
	wantBuildError(t, in, `native annotation of "calendar event list" says "calendar.other"`)
}

// withHook runs Build with a registry hook installed.
func withHook(t *testing.T, hook func(*catalog.Registry), want string) {
	t.Helper()
	testHookRegistry = hook
	defer func() { testHookRegistry = nil }()
	wantBuildError(t, fixtureInput(), want)
}

func findTool(r *catalog.Registry, canonical string) *catalog.ToolSpec {
	for _, t := range r.Tools() {
		if t.Identity.CanonicalPath == canonical {
			return t
		}
	}
	return nil
}

func TestGateProvenanceWinnerDiffersFromDelivered(t *testing.T) {
	withHook(t, func(r *catalog.Registry) {
		findTool(r, "aitable.base_delete").Safety.Risk = "low"
	}, `field risk: provenance winner "high" differs from the delivered value "low"`)
	withHook(t, func(r *catalog.Registry) {
		findTool(r, "calendar.create_calendar_event").Parameters[0].Required = true
	}, "parameter attendees: field required: provenance winner false differs")
	withHook(t, func(r *catalog.Registry) {
		delete(findTool(r, "aitable.base_delete").Provenance, "title")
	}, "provenance covers")
}

func TestGateInterfaceRefOnUnavailable(t *testing.T) {
	withHook(t, func(r *catalog.Registry) {
		findTool(r, "aitable.base_delete").Interface.Availability = Unavailable
	}, "an unavailable command carries interface_ref")
	withHook(t, func(r *catalog.Registry) {
		tool := findTool(r, "aitable.base_delete")
		tool.Interface.Ref = &catalog.InterfaceRef{ProductID: "aitable", RPCName: "not_pinned"}
	}, "is not in the pinned interface registry")
	withHook(t, func(r *catalog.Registry) {
		tool := findTool(r, "calendar.list_calendar_events")
		tool.Interface.Mode = ModeLocal
		tool.Interface.Ref = &catalog.InterfaceRef{ProductID: "calendar", RPCName: "list_events"}
	}, "a local command carries interface_ref")
}

func TestResolverRejectsReviewedRefOnUnavailable(t *testing.T) {
	in := fixtureInput()
	m := in.Metadata[0].Tools["aitable.base_delete"]
	m.Availability, m.InterfaceReason = Unavailable, "service retired"
	m.InterfaceRef = &catalog.InterfaceRef{ProductID: "aitable", RPCName: "delete_base"}
	in.Metadata[0].Tools["aitable.base_delete"] = m
	wantBuildError(t, in, "conflicts with mcp/unavailable")
	m.InterfaceRef = nil
	in.Metadata[0].Tools["aitable.base_delete"] = m
	res, err := Build(in)
	if err != nil {
		t.Fatal(err)
	}
	tool := findTool(res.Registry, "aitable.base_delete")
	if tool.Interface.Ref != nil || len(tool.Provenance["interface_ref"].OverriddenCandidates) != 1 {
		t.Fatalf("the pinned ref was not overridden by the matrix: %+v", tool.Interface)
	}
}

// TestGateStability holds Input.Root to building the same tree on every
// call: a flag whose usage changes between calls fails generation with the
// stability gate, which names the flag and both usages.
func TestGateStability(t *testing.T) {
	in := fixtureInput()
	var calls atomic.Int32
	in.Root = func() *cobra.Command {
		root := fixtureRoot()
		n := calls.Add(1)
		for _, c := range root.Commands() {
			if c.Name() == "calendar" {
				c.PersistentFlags().String("tz", "", fmt.Sprintf("time zone %d", n))
			}
		}
		return root
	}
	_, err := Build(in)
	if err == nil || !strings.Contains(err.Error(), "stability gate") ||
		!strings.Contains(err.Error(), `"time zone 1"`) || !strings.Contains(err.Error(), `"time zone 2"`) {
		t.Fatalf("Build error = %v, want the stability gate naming both usages of --tz", err)
	}
}

// TestTwoBuildsByteIdentical holds generation to the rule that two
// successive generations are byte identical: two builds at once, each from
// its own cobra tree, give the same catalog and index.
func TestTwoBuildsByteIdentical(t *testing.T) {
	in := fixtureInput()
	var res [2]*Result
	var errs [2]error
	var wg sync.WaitGroup
	for i := range res {
		wg.Go(func() { res[i], errs[i] = Build(in) })
	}
	wg.Wait()
	if err := errors.Join(errs[:]...); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(res[0].Data, res[1].Data) || !bytes.Equal(res[0].Index, res[1].Index) {
		t.Fatal("two generations from the same sources differ")
	}
}

func TestSameRankDisagreementFails(t *testing.T) {
	in := fixtureInput()
	other := MetadataSource{Version: 1, Ref: "metadata/other.json", Source: SourceInfo{Name: "other", Reviewed: true},
		Tools: map[string]ToolMetadata{"aitable.base_delete": {Effect: "write", Reviewed: true}}}
	in.Metadata = append(in.Metadata, other)
	wantBuildError(t, in, "at the same precedence reviewed_explicit")
}

func TestPrecedenceIsValueNeutral(t *testing.T) {
	in := fixtureInput()
	m := in.Metadata[0].Tools["aitable.base_delete"]
	m.Parameters["base-id"] = ParameterOverlay{Required: ptr(false)}
	in.Metadata[0].Tools["aitable.base_delete"] = m
	res, err := Build(in)
	if err != nil {
		t.Fatal(err)
	}
	p := findTool(res.Registry, "aitable.base_delete").Parameters[0]
	if p.Name != "base-id" || p.Required || !p.CLIRequired {
		t.Fatalf("reviewed manual false must beat cobra's hard required true, cli_required stays: %+v", p)
	}
	if got := p.Provenance["required"].Precedence; got != PrecReviewedManual {
		t.Fatalf("required winner precedence = %s", got)
	}
}

func TestSourcesCannotCreateCommandsOrFlags(t *testing.T) {
	in := fixtureInput()
	in.Selection[0].Tools["calendar.ghost"] = ToolSelection{AgentSummary: "x"}
	wantBuildError(t, in, "not in the effective registry: [calendar.ghost]")
	in = fixtureInput()
	in.Bindings.Tools["aitable.base_delete"] = map[string]string{"force": "force"}
	wantBuildError(t, in, `sources name flag(s) --force, which "aitable base delete" does not accept`)
}

func TestGateExamples(t *testing.T) {
	in := fixtureInput()
	s := in.Selection[0].Tools["aitable.base_delete"]
	s.Examples = []string{"dws aitable base delete --base-id B --yes"}
	in.Selection[0].Tools["aitable.base_delete"] = s
	wantBuildError(t, in, "pre-confirms with --yes")
	s.Examples = []string{"dws aitable base get"}
	in.Selection[0].Tools["aitable.base_delete"] = s
	wantBuildError(t, in, "does not start with")
}

// TestGateDeliveryProductSummaries requires the delivery gate to fail when
// a product query through the loader differs from the registry's
// summaries (here the registry changed after the catalog was written).
func TestGateDeliveryProductSummaries(t *testing.T) {
	res, err := Build(fixtureInput())
	if err != nil {
		t.Fatal(err)
	}
	if err := GateDelivery(res.Registry, res.Data, res.Index); err != nil {
		t.Fatalf("unchanged registry: %v", err)
	}
	res.Registry.Products[0].Tools[0].Title = "Changed after delivery"
	err = GateDelivery(res.Registry, res.Data, res.Index)
	if err == nil || !strings.Contains(err.Error(), "differs from its ToolSpec summaries") {
		t.Fatalf("GateDelivery = %v, want a product summary difference", err)
	}
}

// TestGateDeliveryCompactForms requires the delivery gate to fail when a
// stored compact form differs from the compaction of its full leaf.
func TestGateDeliveryCompactForms(t *testing.T) {
	res, err := Build(fixtureInput())
	if err != nil {
		t.Fatal(err)
	}
	broken := bytes.Clone(res.Index)
	i := bytes.LastIndex(broken, []byte(`"canonical_path":"`)) // in the compact section
	copy(broken[i+1:], "X")
	err = GateDelivery(res.Registry, res.Data, broken)
	if err == nil || !strings.Contains(err.Error(), "stored compact form differs") {
		t.Fatalf("GateDelivery = %v, want a compact form difference", err)
	}
}
