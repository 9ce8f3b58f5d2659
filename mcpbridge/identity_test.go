package mcpbridge_test

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/cetpgen/cetpgen/mcpbridge"
	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/provider/providertest"
	"github.com/cetpgen/cetpgen/runtime/store/memstore"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestVisibilityPerIdentity: each bridge lists what the Provider shows
// its own identity, asked again at every tools/list: a tool hidden from
// one UID is absent from that UID's bridge only, and a tool hidden later
// disappears at the next tools/list without any cache standing in.
func TestVisibilityPerIdentity(t *testing.T) {
	var hideFromTestUID atomic.Bool
	visible := func(_ context.Context, c provider.Caller, ti provider.ToolInfo) bool {
		return ti.Name != "remove" || (c.UID == testUID && !hideFromTestUID.Load())
	}
	auth := &providertest.Authorizer{}
	auth.Grant(testUID, "w")
	auth.Grant(testUID+1, "w")
	desc := provider.Descriptor{ID: "com.example.test", Name: "Test", Description: "d", Versions: []int{2},
		Scopes: []provider.Scope{{Name: "w", Title: "W", Description: "d", Access: provider.AccessWrite, Sensitivity: provider.SensitivityOther}}}
	p, err := provider.New(desc, testTools(&counters{}, 10, 0)[:2], provider.Options{Store: memstore.New(), Authorizer: auth, Visibility: visible})
	if err != nil {
		t.Fatal(err)
	}
	names := func(s *session) []string {
		res, err := s.cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, tool := range res.Tools {
			out = append(out, tool.Name)
		}
		slices.Sort(out)
		return out
	}
	mine := connect(t, consumer.InProcess{Provider: p, Caller: provider.Caller{UID: testUID}}, mcpbridge.Options{RefreshInterval: -1})
	other := connect(t, consumer.InProcess{Provider: p, Caller: provider.Caller{UID: testUID + 1}}, mcpbridge.Options{RefreshInterval: -1})
	if got := names(mine); !slices.Equal(got, []string{"big", "remove"}) {
		t.Fatalf("the owner's bridge lists %v", got)
	}
	if got := names(other); !slices.Equal(got, []string{"big"}) {
		t.Fatalf("the other UID's bridge lists %v", got)
	}
	if _, err := other.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "remove", Arguments: map[string]any{}}); err == nil {
		t.Fatal("the other UID's bridge called a tool hidden from it")
	}
	hideFromTestUID.Store(true)
	if got := names(mine); !slices.Equal(got, []string{"big"}) {
		t.Fatalf("after hiding, the owner's bridge lists %v", got)
	}
}
