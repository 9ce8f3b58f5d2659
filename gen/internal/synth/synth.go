// Package synth writes synthetic Provider specs of any size for
// benchmarks: realistic tools with nested objects, arrays, enums, $defs and
// $ref, nullable fields and every effect, spread over a few scopes.
package synth

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// Write creates dir/provider.yaml and n tool files under dir/tools.
func Write(dir string, n int) error {
	if err := os.MkdirAll(filepath.Join(dir, "tools"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "provider.yaml"), []byte(provider), 0o644); err != nil {
		return err
	}
	for i := range n {
		name := fmt.Sprintf("tool_%04d", i)
		if err := os.WriteFile(filepath.Join(dir, "tools", name+".yaml"), []byte(Tool(i)), 0o644); err != nil {
			return err
		}
	}
	return nil
}

const provider = `cetpgen: 1
provider: {id: com.example.synth, name: Synthetic, description: A synthetic Provider for benchmarks}
android: {package: com.example.synth, authority: com.example.synth.tools}
versions: [1, 2]
capabilities: [async_operations, cancellation, large_results]
limits: {max_request_bytes: 65536, max_inline_result_bytes: 262144, max_concurrent_requests: 8, idempotency_window_seconds: 86400}
scopes:
  - {name: items.read, title: Read items, description: Read items, access: read, sensitivity: personal}
  - {name: items.write, title: Change items, description: Change items, access: write, sensitivity: personal}
cli: {product: synth}
`

// effects cycles through every effect with annotations that satisfy the
// CETP rules for it.
var effects = []struct {
	effect                  protocol.Effect
	risk                    protocol.Risk
	destructive, idempotent string
	confirmation            protocol.Confirmation
	scope                   string
}{
	{protocol.EffectRead, protocol.RiskLow, "false", "true", protocol.ConfirmNever, "items.read"},
	{protocol.EffectCreate, protocol.RiskModerate, "false", "false", protocol.ConfirmProviderPolicy, "items.write"},
	{protocol.EffectUpdate, protocol.RiskModerate, "false", "true", protocol.ConfirmProviderPolicy, "items.write"},
	{protocol.EffectDelete, protocol.RiskHigh, "true", "true", protocol.ConfirmAlways, "items.write"},
	{protocol.EffectTransaction, protocol.RiskHigh, "false", "false", protocol.ConfirmAlways, "items.write"},
}

// Tool returns the YAML of synthetic tool i.
func Tool(i int) string {
	e := effects[i%len(effects)]
	name := fmt.Sprintf("tool_%04d", i)
	r := strings.NewReplacer(
		"NAME", name, "EFFECT", string(e.effect), "RISK", string(e.risk), "DESTRUCTIVE", e.destructive,
		"IDEMPOTENT", e.idempotent, "CONFIRM", string(e.confirmation), "SCOPE", e.scope,
		"PATH", strings.ReplaceAll(name, "_", "-"))
	return r.Replace(toolTemplate)
}

const toolTemplate = `name: NAME
title: Tool NAME
description: Synthetic tool NAME that works on items.
input_schema:
  type: object
  properties:
    item_id: {type: string, minLength: 1, maxLength: 64}
    kind: {$ref: '#/$defs/kind'}
    filter:
      type: object
      properties:
        tags: {type: array, items: {type: string}, maxItems: 20}
        since: {type: string, format: date-time}
        limit: {type: integer, minimum: 1, maximum: 500}
      additionalProperties: false
    note: {type: [string, 'null'], maxLength: 500}
  required: [item_id, kind]
  additionalProperties: false
  $defs:
    kind: {type: string, enum: [alpha, beta, gamma]}
output_schema:
  type: object
  properties:
    items:
      type: array
      items: {$ref: '#/$defs/item'}
    total: {type: integer, minimum: 0}
  required: [items, total]
  $defs:
    item:
      type: object
      properties:
        id: {type: string}
        price: {type: number, exclusiveMinimum: 0}
        labels: {type: object, additionalProperties: {type: string}}
      required: [id]
scopes: [SCOPE]
annotations:
  effect: EFFECT
  risk: RISK
  destructive: DESTRUCTIVE
  idempotent: IDEMPOTENT
  open_world: false
  confirmation: CONFIRM
  execution: sync
cli:
  path: synth PATH
  selection:
    summary: Run NAME
`
