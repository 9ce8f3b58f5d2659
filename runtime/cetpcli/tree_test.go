package cetpcli_test

import (
	"strings"
	"testing"

	"github.com/cetpgen/cetpgen/runtime/cetpcli"
	"github.com/spf13/cobra"
)

// find walks root by command names.
func find(t *testing.T, root *cobra.Command, path string) *cobra.Command {
	t.Helper()
	c, rest, err := root.Find(strings.Fields(path))
	if err != nil || len(rest) > 0 {
		t.Fatalf("%q: %v %v", path, err, rest)
	}
	return c
}

// TestTree checks the shape NewRoot builds from the table: groups, the
// leaf with its annotation and flags, an alias in the same group as a cobra
// alias, another as a compatibility leaf with the same flags.
func TestTree(t *testing.T) {
	root := cetpcli.NewRoot(testApp, cetpcli.Env{})
	leaf := find(t, root, "notes echo")
	if leaf.Annotations[cetpcli.AnnotationCanonical] != "notes.echo" || leaf.Short != "" || find(t, root, "notes").Short != "Notes" {
		t.Errorf("leaf %q annotations %v", leaf.CommandPath(), leaf.Annotations)
	}
	if got := strings.Join(leaf.Aliases, ","); got != "say" {
		t.Errorf("cobra aliases %q, want say", got)
	}
	compat := find(t, root, "notes other echo")
	if compat == leaf || compat.Flags().Lookup("tag") == nil || compat.Flags().Lookup("json") == nil {
		t.Errorf("compatibility leaf %q lacks its flags", compat.CommandPath())
	}
	want := map[string]string{"count": "int", "loud": "bool", "meta": "json", "mode": "string", "n": "intArray",
		"ratio": "float", "tag": "stringArray", "text": "string", "json": "string"}
	for name, typ := range want {
		if f := leaf.Flags().Lookup(name); f == nil || f.Value.Type() != typ {
			t.Errorf("--%s: %v, want type %s", name, f, typ)
		}
	}
	if d := leaf.Flags().Lookup("mode").DefValue; d != "a" {
		t.Errorf("--mode default %q", d)
	}
	if find(t, root, "schema").Name() != "schema" || root.PersistentFlags().Lookup("socket") == nil {
		t.Error("no schema command or --socket flag")
	}
}

// TestSchemaWithoutCatalog fails cleanly in a tree built without one.
func TestSchemaWithoutCatalog(t *testing.T) {
	if r := run("", nil, "schema"); r.code != cetpcli.ExitUsage || !strings.Contains(r.stderr, "no catalog") {
		t.Errorf("exit %d, %s", r.code, r.stderr)
	}
}

// TestValidate rejects tables the tree could not hold.
func TestValidate(t *testing.T) {
	if err := cetpcli.Validate(testApp); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		edit func(a *cetpcli.App)
		want string
	}{
		{"root is product", func(a *cetpcli.App) { a.Name = "notes" }, "must be distinct"},
		{"builtin product", func(a *cetpcli.App) { a.Product = "schema" }, "must be distinct"},
		{"outside product", func(a *cetpcli.App) { a.Commands[1].Path = "other fail" }, "must be the product"},
		{"product alone", func(a *cetpcli.App) { a.Commands[1].Path = "notes" }, "must be the product"},
		{"duplicate", func(a *cetpcli.App) { a.Commands[1].Aliases = []string{"notes say"} }, "already the path"},
		{"leaf and group", func(a *cetpcli.App) { a.Commands[1].Path = "notes echo more" }, "is a group of"},
		{"reserved flag", func(a *cetpcli.App) {
			a.Commands[1].Flags = []cetpcli.Flag{{Name: "json", Property: "j", Kind: cetpcli.String}}
		}, "not allowed"},
		{"bad flag", func(a *cetpcli.App) {
			a.Commands[1].Flags = []cetpcli.Flag{{Name: "Big", Property: "j", Kind: cetpcli.String}}
		}, "not allowed"},
		{"empty enum", func(a *cetpcli.App) {
			a.Commands[1].Flags = []cetpcli.Flag{{Name: "e", Property: "e", Kind: cetpcli.Enum}}
		}, "no values"},
		{"unknown kind", func(a *cetpcli.App) { a.Commands[1].Flags = []cetpcli.Flag{{Name: "e", Property: "e", Kind: "date"}} }, "unknown kind"},
		{"bad default", func(a *cetpcli.App) {
			a.Commands[1].Flags = []cetpcli.Flag{{Name: "e", Property: "e", Kind: cetpcli.Integer, Default: "x"}}
		}, "default of --e"},
		{"twice", func(a *cetpcli.App) {
			a.Commands[1].Flags = []cetpcli.Flag{{Name: "e", Property: "e", Kind: cetpcli.String}, {Name: "f", Property: "e", Kind: cetpcli.String}}
		}, "appears twice"},
	}
	for _, c := range cases {
		a := clone(testApp)
		c.edit(a)
		if err := cetpcli.Validate(a); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// clone copies the table deeply enough for TestValidate's edits.
func clone(a *cetpcli.App) *cetpcli.App {
	b := *a
	b.Commands = append([]cetpcli.Command(nil), a.Commands...)
	return &b
}

// TestVersion: a generated CLI answers --version with its name, its
// module's version, the cetpgen runtime's and Go's.
func TestVersion(t *testing.T) {
	root := cetpcli.NewRoot(testApp, cetpcli.Env{})
	var out strings.Builder
	root.SetOut(&out)
	root.SetArgs([]string{"--version"})
	if err := root.Execute(); err != nil || !strings.HasPrefix(out.String(), testApp.Name+" ") || !strings.Contains(out.String(), "go1.") {
		t.Fatalf("--version: %v, %q", err, out.String())
	}
}
