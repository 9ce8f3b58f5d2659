package catalog

import (
	"strings"
	"testing"

	"github.com/cetpgen/cetpgen/runtime/catalog"
	"github.com/spf13/cobra"
)

func hasParam(t *catalog.ToolSpec, name string) bool {
	for _, p := range t.Parameters {
		if p.Name == name {
			return true
		}
	}
	return false
}

// withoutBuiltinExclusions drops the fixture's exclusions of Cobra's own
// help and completion commands, as dws's exclusions have none.
func withoutBuiltinExclusions(in *Input) *Input {
	var keep []Exclusion
	for _, x := range in.Exclusions {
		if x.CLIPath != "help" && !strings.HasPrefix(x.CLIPath, "completion") {
			keep = append(keep, x)
		}
	}
	in.Exclusions = keep
	return in
}

func TestBuiltinsNeedNoExclusion(t *testing.T) {
	if _, err := Build(withoutBuiltinExclusions(fixtureInput())); err != nil {
		t.Fatalf("Cobra's help and completion must not need exclusions: %v", err)
	}
	// Excluding them anyway (older catalogs did) is redundant, not wrong.
	if _, err := Build(fixtureInput()); err != nil {
		t.Fatal(err)
	}
}

func TestBuiltinCannotBeATool(t *testing.T) {
	in := fixtureInput()
	addTool(in, "calendar", CommandSpec{CanonicalPath: "calendar.help", CLIPath: "help"})
	wantBuildError(t, in, `calendar.help: "help" is a Cobra built-in command`)
}

// A CLI's own completion leaf (dws has `completion [shell]`) replaces
// Cobra's and is an ordinary public leaf: it must be excluded or bound.
func TestOwnCompletionLeafIsWalked(t *testing.T) {
	in := withoutBuiltinExclusions(fixtureInput())
	root := in.Root
	in.Root = func() *cobra.Command {
		r := root()
		r.AddCommand(leaf("completion", "Print a shell completion script"))
		return r
	}
	wantBuildError(t, in, `public runnable leaf "completion" is neither in the registry nor excluded`)
	in.Exclusions = append(in.Exclusions, Exclusion{CLIPath: "completion", Reason: "shell setup", Reviewed: true})
	if _, err := Build(in); err != nil {
		t.Fatal(err)
	}
}

// inheritedRoot moves --size of "calendar event list" onto its parent
// "calendar event" as a persistent flag, and gives the root a global
// persistent --format.
func inheritedRoot() *cobra.Command {
	r := fixtureRoot()
	r.PersistentFlags().String("format", "json", "output format")
	list, _, _ := r.Find([]string{"calendar", "event", "list"})
	list.ResetFlags()
	list.Parent().PersistentFlags().Int("size", 20, "每页条数（默认 20）")
	return r
}

func TestInheritedFlagsAreToolFlags(t *testing.T) {
	in := fixtureInput()
	in.Root = inheritedRoot
	in.Bindings.Tools["calendar.list_calendar_events"] = map[string]string{"size": "maxResults"}
	res, err := Build(in)
	if err != nil {
		t.Fatalf("a binding to an inherited flag must bind: %v", err)
	}
	tool := findTool(res.Registry, "calendar.list_calendar_events")
	var names []string
	for _, p := range tool.Parameters {
		names = append(names, p.Name)
	}
	if strings.Join(names, ",") != "size" {
		t.Fatalf("parameters = %v, want the inherited size only (the root's --format is a global option)", names)
	}
	p := tool.Parameters[0]
	if p.Property != "maxResults" || p.Type != "integer" || p.Default != "20" {
		t.Errorf("inherited size resolved as %+v", p)
	}
	if got := p.Provenance["type"].SourceRef; got != `persistent flag of "calendar event"` {
		t.Errorf("type provenance source_ref = %q, want the declaring ancestor", got)
	}
	// The sibling "calendar event create" inherits it too.
	if create := findTool(res.Registry, "calendar.create_calendar_event"); !hasParam(create, "size") {
		t.Error("calendar event create lost the inherited --size")
	}
}

func TestCompatibilityLeafComparesInheritedFlags(t *testing.T) {
	in := fixtureInput()
	in.Root = func() *cobra.Command {
		r := fixtureRoot()
		inbox, _, _ := r.Find([]string{"report", "inbox"})
		inbox.PersistentFlags().Bool("unread", false, "only unread")
		return r
	}
	wantBuildError(t, in, `compatibility leaf "report list" has another flag contract than "report inbox list"`)
}

func TestBinderReportsEveryMismatch(t *testing.T) {
	in := withoutBuiltinExclusions(fixtureInput())
	addTool(in, "calendar", CommandSpec{CanonicalPath: "calendar.ghost", CLIPath: "calendar ghost"})
	addTool(in, "aitable", CommandSpec{CanonicalPath: "aitable.phantom", CLIPath: "aitable base phantom"})
	in.Exclusions = in.Exclusions[:0]
	_, err := Build(in)
	if err == nil {
		t.Fatal("Build passed")
	}
	for _, want := range []string{
		`calendar.ghost: phantom or stale primary path: path "calendar ghost"`,
		`aitable.phantom: phantom or stale primary path: path "aitable base phantom"`,
		`public runnable leaf "version" is neither in the registry nor excluded`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
}

// TestResolvePathByNameThenAlias walks a tree by exact names, then by
// cobra aliases, with the binder's index and without it: a name wins over
// another command's alias, an alias shared by two commands is ambiguous,
// an alias a command repeats is not.
func TestResolvePathByNameThenAlias(t *testing.T) {
	root := &cobra.Command{Use: "app"}
	grp := &cobra.Command{Use: "note", Aliases: []string{"n"}}
	list := leaf("list", "List")
	list.Aliases = []string{"ls", "ls", "show"}
	show, rm, del := leaf("show", "Show"), leaf("rm", "Remove"), leaf("delete", "Delete")
	rm.Aliases, del.Aliases = []string{"del"}, []string{"del"}
	grp.AddCommand(list, show, rm, del)
	root.AddCommand(grp)
	cases := []struct {
		path  string
		want  *cobra.Command
		alias bool
		err   string
	}{
		{"note list", list, false, ""},
		{"note ls", list, true, ""},
		{"n ls", list, true, ""},
		{"note show", show, false, ""},
		{"note del", nil, false, `"del" is ambiguous under "app note"`},
		{"note lis", nil, false, `no command "lis" under "app note"`},
	}
	for _, idx := range []subcommands{nil, {}} {
		for _, c := range cases {
			r, err := idx.resolvePath(root, c.path)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Errorf("index %v: %q: error %v, want %q", idx != nil, c.path, err, c.err)
				}
				continue
			}
			if err != nil || r.cmd != c.want || r.usedAlias != c.alias {
				t.Errorf("index %v: %q: another command, or alias %v (%v); want %s, alias %v", idx != nil, c.path, r.usedAlias, err, c.want.Name(), c.alias)
			}
		}
	}
}
