package authz

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/provider"
)

var catalogue = []provider.Scope{{Name: "notes.read"}, {Name: "notes.write"}}

func scopesOf(t *testing.T, a provider.Authorizer, c provider.Caller) []string {
	t.Helper()
	s, err := a.Scopes(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestOwnerHoldsEveryScope(t *testing.T) {
	o := NewOwner(1000, append(catalogue, provider.Scope{Name: "notes.read"}))
	if got := scopesOf(t, o, provider.Caller{UID: 1000}); !reflect.DeepEqual(got, []string{"notes.read", "notes.write"}) {
		t.Errorf("owner holds %v", got)
	}
	if got := scopesOf(t, o, provider.Caller{UID: 1001}); len(got) != 0 {
		t.Errorf("another UID holds %v", got)
	}
	if o.Resolution(context.Background(), provider.Caller{UID: 1001}, provider.ToolInfo{}, []string{"notes.read"}) != nil {
		t.Error("Owner offers a resolution; it has no UI")
	}
}

// writeFile replaces path atomically, as editors save.
func writeFile(t *testing.T, path, text string) {
	t.Helper()
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

func TestGrantsFileIsReReadOnChange(t *testing.T) {
	path := filepath.Join(t.TempDir(), "grants.yaml")
	writeFile(t, path, "grants:\n  - {uid: 2000, scopes: [notes.read]}\n")
	g, err := OpenGrants(path, GrantsOptions{Catalogue: catalogue})
	if err != nil {
		t.Fatal(err)
	}
	agent := provider.Caller{UID: 2000}
	if got := scopesOf(t, g, agent); !reflect.DeepEqual(got, []string{"notes.read"}) {
		t.Fatalf("first read: %v", got)
	}
	writeFile(t, path, "grants:\n  - uid: 2000\n    scopes: [notes.write, notes.read]\n")
	if got := scopesOf(t, g, agent); !reflect.DeepEqual(got, []string{"notes.read", "notes.write"}) {
		t.Fatalf("after the edit: %v", got)
	}
	writeFile(t, path, "grants:\n  - uid: 2000\n    scopes: [notes.wirte]\n")
	if _, err := g.Scopes(context.Background(), agent); err == nil || !strings.Contains(err.Error(), "line 2") ||
		!strings.Contains(err.Error(), `"notes.wirte"`) {
		t.Fatalf("a typo in the file: %v", err)
	}
	os.Remove(path)
	if got := scopesOf(t, g, agent); len(got) != 0 {
		t.Fatalf("a removed file still grants %v", got)
	}
}

func TestGrantBindings(t *testing.T) {
	const cert = "AB:" + "cd0123456789abcdef0123456789abcdef0123456789abcdef0123456789ab"
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	path := filepath.Join(t.TempDir(), "grants.yaml")
	writeFile(t, path, `grants:
  - uid: 3000
    scopes: [notes.read]
    package: com.example.agent
    cert_sha256: "`+cert+`"
  - uid: 3001
    scopes: [notes.write]
    expires: 2026-12-01T11:59:59Z
  - uid: 3001
    scopes: [notes.read]
    expires: "2026-12-02T00:00:00+08:00"
`)
	g, err := OpenGrants(path, GrantsOptions{Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	digest := "abcd0123456789abcdef0123456789abcdef0123456789abcdef0123456789ab"
	for _, c := range []struct {
		caller provider.Caller
		want   []string
	}{
		{provider.Caller{UID: 3000}, nil},
		{provider.Caller{UID: 3000, Packages: []provider.CallerPackage{{Name: "com.example.agent", CertSHA256: []string{"00"}}}}, nil},
		{provider.Caller{UID: 3000, Packages: []provider.CallerPackage{{Name: "com.other"}, {Name: "com.example.agent", CertSHA256: []string{digest}}}}, []string{"notes.read"}},
		{provider.Caller{UID: 3001}, []string{"notes.read"}},
	} {
		if got := scopesOf(t, g, c.caller); !reflect.DeepEqual(got, c.want) && !(len(got) == 0 && len(c.want) == 0) {
			t.Errorf("%+v holds %v, want %v", c.caller, got, c.want)
		}
	}
}

func TestBadGrantsFiles(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"grants:\n  - {uid: 1, scopes: [a], pakage: x}\n", "pakage"},
		{"grants:\n  - {scopes: [a]}\n", "uid is required"},
		{"grants:\n  - {uid: 1, scopes: []}\n", "at least one scope"},
		{"grants:\n  - {uid: 1, scopes: [a], cert_sha256: abc}\n", "needs package"},
		{"grants:\n  - {uid: 1, scopes: [a], package: p, cert_sha256: abc}\n", "not a SHA-256"},
		{"grants:\n  - {uid: 1, scopes: [a], expires: tomorrow}\n", "RFC 3339"},
		{"grants:\n  - {uid: 1, uid: 2, scopes: [a]}\n", "already defined"},
		{"grants: [\n", "yaml"},
	} {
		if _, err := ParseGrants([]byte(c.text), nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.text, err, c.want)
		}
	}
	if _, err := OpenGrants(filepath.Join(t.TempDir(), "none.yaml"), GrantsOptions{}); err == nil {
		t.Error("a missing grants file opened")
	}
}

func TestUnionFailsClosed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "grants.yaml")
	writeFile(t, path, "grants:\n  - {uid: 2000, scopes: [notes.read]}\n")
	g, err := OpenGrants(path, GrantsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	u := Union{NewOwner(1000, catalogue), g}
	if got := scopesOf(t, u, provider.Caller{UID: 2000}); !reflect.DeepEqual(got, []string{"notes.read"}) {
		t.Errorf("union: %v", got)
	}
	writeFile(t, path, "grants: {\n")
	if _, err := u.Scopes(context.Background(), provider.Caller{UID: 1000}); err == nil {
		t.Error("a broken grants file was read as no grants")
	}
}

func FuzzParseGrants(f *testing.F) {
	f.Add([]byte("grants:\n  - {uid: 1, scopes: [a], package: p, cert_sha256: \"" + strings.Repeat("ab", 32) + "\", expires: 2027-01-01T00:00:00Z}\n"))
	f.Add([]byte("grants: []\n"))
	f.Add([]byte("grants:\n  - &a {uid: 1, scopes: [a]}\n  - *a\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		grants, err := ParseGrants(data, catalogue[:1])
		if err != nil {
			return
		}
		for _, g := range grants {
			if g.UID < 0 || len(g.Scopes) == 0 || (g.CertSHA256 != "" && g.Package == "") {
				t.Fatalf("accepted a bad grant %+v", g)
			}
		}
	})
}
