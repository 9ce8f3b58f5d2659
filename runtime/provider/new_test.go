package provider_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/store/memstore"
)

// TestNewRejects proves that New refuses every configuration the spec
// forbids, before any call can reach it.
func TestNewRejects(t *testing.T) {
	base := func() (provider.Descriptor, provider.Tool) {
		return provider.Descriptor{ID: providerA, Name: "App", Versions: []int{2},
				Scopes: []provider.Scope{{Name: "alerts.write", Title: "t", Description: "d", Access: provider.AccessWrite, Sensitivity: provider.SensitivityFinancial}}},
			provider.Tool{Name: "create_alert", InputSchema: json.RawMessage(alertIn), OutputSchema: json.RawMessage(alertOut),
				Scopes: []string{"alerts.write"}, Annotations: writes(provider.EffectCreate, provider.ConfirmNever), Handler: insertAlert(nil)}
	}
	cases := map[string]func(d *provider.Descriptor, tl *provider.Tool){
		"bad tool name":          func(_ *provider.Descriptor, tl *provider.Tool) { tl.Name = "Create-Alert" },
		"undeclared scope":       func(_ *provider.Descriptor, tl *provider.Tool) { tl.Scopes = []string{"alerts.read"} },
		"bad scope name":         func(d *provider.Descriptor, _ *provider.Tool) { d.Scopes[0].Name = "Alerts" },
		"unknown sensitivity":    func(d *provider.Descriptor, _ *provider.Tool) { d.Scopes[0].Sensitivity = "secret" },
		"unknown effect":         func(_ *provider.Descriptor, tl *provider.Tool) { tl.Annotations.Effect = "mutate" },
		"missing execution":      func(_ *provider.Descriptor, tl *provider.Tool) { tl.Annotations.Execution = "" },
		"delete without always":  func(_ *provider.Descriptor, tl *provider.Tool) { tl.Annotations.Effect = provider.EffectDelete },
		"destructive w/o always": func(_ *provider.Descriptor, tl *provider.Tool) { tl.Annotations.Destructive = true },
		"high risk w/o always":   func(_ *provider.Descriptor, tl *provider.Tool) { tl.Annotations.Risk = provider.RiskHigh },
		"sync_or_async without async_operations": func(_ *provider.Descriptor, tl *provider.Tool) {
			tl.Annotations.Execution = provider.ExecSyncOrAsync
		},
		"cancellation without async_operations": func(d *provider.Descriptor, _ *provider.Tool) { d.Capabilities = []string{"cancellation"} },
		"unknown capability":                    func(d *provider.Descriptor, _ *provider.Tool) { d.Capabilities = []string{"teleport"} },
		"limits below the minimums":             func(d *provider.Descriptor, _ *provider.Tool) { d.Limits.MaxRequestBytes = 1024 },
		"window below the minimum":              func(d *provider.Descriptor, _ *provider.Tool) { d.Limits.IdempotencyWindowSeconds = 60 },
		"no version 2":                          func(d *provider.Descriptor, _ *provider.Tool) { d.Versions = []int{1} },
		"unknown version":                       func(d *provider.Descriptor, _ *provider.Tool) { d.Versions = []int{2, 3} },
		"remote $ref": func(_ *provider.Descriptor, tl *provider.Tool) {
			tl.InputSchema = json.RawMessage(`{"type":"object","properties":{"a":{"$ref":"https://example.com/s.json"}}}`)
		},
		"file $ref": func(_ *provider.Descriptor, tl *provider.Tool) {
			tl.OutputSchema = json.RawMessage(`{"$ref":"file:///etc/passwd"}`)
		},
		"dangling local $ref": func(_ *provider.Descriptor, tl *provider.Tool) {
			tl.InputSchema = json.RawMessage(`{"type":"object","properties":{"a":{"$ref":"#/$defs/missing"}}}`)
		},
		"other dialect": func(_ *provider.Descriptor, tl *provider.Tool) {
			tl.InputSchema = json.RawMessage(`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object"}`)
		},
		"input schema not an object": func(_ *provider.Descriptor, tl *provider.Tool) { tl.InputSchema = json.RawMessage(`{"type":"string"}`) },
		"schema not JSON":            func(_ *provider.Descriptor, tl *provider.Tool) { tl.OutputSchema = json.RawMessage(`{`) },
		"no handler":                 func(_ *provider.Descriptor, tl *provider.Tool) { tl.Handler = nil },
	}
	for name, mutate := range cases {
		t.Run(name, func(t *testing.T) {
			d, tl := base()
			mutate(&d, &tl)
			if _, err := provider.New(d, []provider.Tool{tl}, provider.Options{Store: memstore.New()}); err == nil {
				t.Fatal("New accepted it")
			}
		})
	}
	t.Run("duplicate tool", func(t *testing.T) {
		d, tl := base()
		if _, err := provider.New(d, []provider.Tool{tl, tl}, provider.Options{Store: memstore.New()}); err == nil || !strings.Contains(err.Error(), "duplicate") {
			t.Fatalf("duplicate tool: %v", err)
		}
	})
	t.Run("write tool without a store", func(t *testing.T) {
		d, tl := base()
		if _, err := provider.New(d, []provider.Tool{tl}, provider.Options{}); err == nil {
			t.Fatal("write tool accepted without a durable store")
		}
	})
	t.Run("valid with local $ref and $defs", func(t *testing.T) {
		d, tl := base()
		tl.InputSchema = json.RawMessage(deleteIn)
		if _, err := provider.New(d, []provider.Tool{tl}, provider.Options{Store: memstore.New()}); err != nil {
			t.Fatal(err)
		}
	})
}
