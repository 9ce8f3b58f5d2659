package consumer_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// FuzzListTools feeds arbitrary list_tools data, then an inline result,
// to a client. Whatever the data, every tool kept names itself validly,
// states every safety annotation with a value §3.4 defines, and has its
// texts within the caps; every other listed tool is in Rejected with a
// reason; and a result of a tool that was not kept is never accepted.
func FuzzListTools(f *testing.F) {
	f.Add(string(toolsListing("x")), "x", `{}`)
	f.Add(listingWith(`{"effect":"teleport"}`, `{}`), "odd", `{}`)
	f.Add(listingWith(readAnnotations, `{"type":"object","required":["a"]}`), "odd", `{"b":1}`)
	f.Add(`{"revision":"r","tools":[{"name":"a","annotations":{"effect":"read","risk":"low","destructive":false,"idempotent":true,"open_world":false,"confirmation":"never","execution":"sync_or_async"},"input_schema":{}}]}`, "a", `1`)
	f.Fuzz(func(t *testing.T, listing, tool, result string) {
		h := &hostile{session: goodSession, listing: listing, execute: inline(result)}
		c := consumer.New(h, consumer.Options{MaxRetries: -1})
		l, err := c.ListTools(context.Background())
		if err != nil {
			return
		}
		kept := map[string]bool{}
		for _, tl := range l.Tools {
			kept[tl.Name] = true
			if len(tl.Title) > consumer.MaxToolTitle || len(tl.Description) > consumer.MaxToolText {
				t.Fatalf("tool %q kept with texts of %d and %d bytes", tl.Name, len(tl.Title), len(tl.Description))
			}
			for k, allowed := range map[string][]string{
				"effect": {"read", "create", "update", "delete", "transaction"}, "risk": {"low", "moderate", "high"},
				"confirmation": {"never", "provider_policy", "always"}, "execution": {"sync"},
			} {
				v, _ := tl.Annotations[k].(string)
				if !contains(allowed, v) {
					t.Fatalf("tool %q kept with %s %v", tl.Name, k, tl.Annotations[k])
				}
			}
			for _, k := range []string{"destructive", "idempotent", "open_world"} {
				if _, ok := tl.Annotations[k].(bool); !ok {
					t.Fatalf("tool %q kept with %s %v", tl.Name, k, tl.Annotations[k])
				}
			}
		}
		for _, r := range l.Rejected {
			if r.Reason == "" {
				t.Fatalf("tool %q rejected without a reason", r.Name)
			}
		}
		if _, err := c.ExecuteTool(context.Background(), tool, json.RawMessage(`{}`)); err == nil && !kept[tool] {
			t.Fatalf("a result of %q, which the list did not keep, was accepted", tool)
		}
		if h.count(protocol.MethodExecuteTool) > 1 {
			t.Fatalf("execute_tool sent %d times with retries off", h.count(protocol.MethodExecuteTool))
		}
	})
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
