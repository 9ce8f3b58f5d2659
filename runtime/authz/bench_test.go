package authz

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/cetpgen/cetpgen/runtime/provider"
)

// BenchmarkGrantsScopes is the cost of the grants file on every call: a
// stat of the file and the match of its grants (here 100, the caller's
// last).
func BenchmarkGrantsScopes(b *testing.B) {
	path := filepath.Join(b.TempDir(), "grants.yaml")
	text := "grants:\n"
	for uid := range 100 {
		text += "  - {uid: " + string(rune('0'+uid/10)) + string(rune('0'+uid%10)) + ", scopes: [notes.read]}\n"
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		b.Fatal(err)
	}
	g, err := OpenGrants(path, GrantsOptions{Catalogue: catalogue})
	if err != nil {
		b.Fatal(err)
	}
	caller := provider.Caller{UID: 99}
	b.ReportAllocs()
	for b.Loop() {
		if s, err := g.Scopes(context.Background(), caller); err != nil || len(s) != 1 {
			b.Fatal(s, err)
		}
	}
}
