package catalog

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

const dwsInputs = "testdata/dws-inputs"

func readInput(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dwsInputs, name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// The real dws registry schema uses look-aheads RE2 cannot compile; it is
// accepted as compatible, and it still rejects what its look-aheads forbid.
func TestDWSRegistrySchemaIsAccepted(t *testing.T) {
	sch, err := CheckRegistrySchema(readInput(t, RegistrySchemaFile), "dws")
	if err != nil {
		t.Fatal(err)
	}
	if sch == nil {
		t.Fatal("no compiled schema")
	}
	if _, err := CheckRegistrySchema(readInput(t, RegistrySchemaFile), "notes"); err == nil ||
		!strings.Contains(err.Error(), "not compatible") {
		t.Fatalf("dws's schema forbids the name dws, not notes: it must not pass for a CLI named notes: %v", err)
	}
}

func TestIncompatibleRegistrySchemasFail(t *testing.T) {
	base := string(readInput(t, RegistrySchemaFile))
	for name, c := range map[string]struct{ old, new, want string }{
		"open commandSpec": {`"commandSpec": {
      "type": "object",
      "additionalProperties": false,`, `"commandSpec": {
      "type": "object",
      "additionalProperties": true,`, "#/$defs/commandSpec is not closed"},
		"extra property": {`"visibility": {
          "type": "string",`, `"title": {"type": "string"},
        "visibility": {
          "type": "string",`, "has properties"},
		"root name allowed": {`(?!dws(?:\\s|$))`, ``, "on the root name as first word"},
		"more visibilities": {`"internal"
          ],`, `"internal", "hidden"
          ],`, "a bad visibility"},
		"unsupported regexp": {`"^[A-Za-z0-9][A-Za-z0-9_-]*$"`, `"^(?<=x)[A-Za-z0-9][A-Za-z0-9_-]*$"`, "does not compile"},
	} {
		if !strings.Contains(base, c.old) {
			t.Fatalf("%s: the edit does not apply", name)
		}
		_, err := CheckRegistrySchema([]byte(strings.Replace(base, c.old, c.new, 1)), "dws")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", name, err, c.want)
		}
	}
}

func TestSplitLookaheads(t *testing.T) {
	rest, negs, err := splitLookaheads(`^(?!dws(?:\s|$))(?!.*(?:^|\s)--)(?!.*[*?\[\]])[A-Za-z0-9]+$`)
	if err != nil {
		t.Fatal(err)
	}
	if rest != `^[A-Za-z0-9]+$` || strings.Join(negs, " | ") != `dws(?:\s|$) | .*(?:^|\s)-- | .*[*?\[\]]` {
		t.Fatalf("split into %q and %q", rest, negs)
	}
}

// dwsPathRule is dws's cliPath rule written out by hand: one or more words
// of [A-Za-z0-9._:-] starting with a letter or digit, single spaces, not
// starting with the word dws, no word starting with --, no * ? [ ].
func dwsPathRule(s string) bool {
	words := strings.Split(s, " ")
	for _, w := range words {
		if w == "" || strings.HasPrefix(w, "--") {
			return false
		}
		for i, c := range w {
			alnum := c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
			if !alnum && (i == 0 || !strings.ContainsRune("._:-", c)) {
				return false
			}
		}
	}
	return words[0] != "dws"
}

// FuzzDWSPathPattern holds the rewritten look-ahead pattern of dws's
// registry schema to the rule it states, on any CLI path.
func FuzzDWSPathPattern(f *testing.F) {
	sch, err := CheckRegistrySchema(readInputF(f, RegistrySchemaFile), "dws")
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{"calendar event create", "dws calendar", "dwsx calendar", "a --b", "a b--c", "a  b", "a*", "x.y:z-1", "", " a", "dws"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, _ := json.Marshal(s)
		doc := `{"$schema":"./schema_command_registry.schema.json","version":1,"products":[{"id":"p","tools":[{"canonical_path":"p.t","cli_path":` + string(b) + `}]}]}`
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := sch.Validate(inst) == nil, dwsPathRule(s); got != want {
			t.Fatalf("%q: the rewritten schema says valid=%v, dws's rule %v", s, got, want)
		}
	})
}

func readInputF(f *testing.F, name string) []byte {
	data, err := os.ReadFile(filepath.Join(dwsInputs, name))
	if err != nil {
		f.Fatal(err)
	}
	return data
}
