package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/cetpgen/cetpgen/runtime/catalog"
)

// GateDelivery checks the delivered catalog through the production loader:
// the file decodes strictly into the same registry, every canonical, primary
// path and alias resolves to the same ToolSpec payload (aliases differing
// only in cli_path and is_alias), every product lists the same summaries,
// and --all holds every tool once with its full payload.
func GateDelivery(reg *catalog.Registry, data, index []byte) error {
	back, _, err := catalog.Decode(data)
	if err != nil {
		return fmt.Errorf("delivery gate: %w", err)
	}
	if err := sameRegistry(reg, back); err != nil {
		return fmt.Errorf("delivery gate: round trip: %w", err)
	}
	c, err := catalog.Open(data, index)
	if err != nil {
		return fmt.Errorf("delivery gate: %w", err)
	}
	for _, t := range reg.Tools() {
		if err := gateLeafViews(c, t); err != nil {
			return fmt.Errorf("delivery gate: %s: %w", t.Identity.CanonicalPath, err)
		}
	}
	return firstErr(gateProducts(c, reg), gateAll(c, reg))
}

// sameRegistry compares two registries by their JSON projections.
func sameRegistry(a, b *catalog.Registry) error {
	ta, tb := a.Tools(), b.Tools()
	if len(ta) != len(tb) || len(a.Products) != len(b.Products) || !reflect.DeepEqual(a.Header, b.Header) {
		return fmt.Errorf("decoded catalog has other products, tools or header")
	}
	for i := range ta {
		if !sameJSON(ta[i], tb[i]) {
			return fmt.Errorf("tool %s differs after decoding", ta[i].Identity.CanonicalPath)
		}
	}
	return nil
}

func sameJSON(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}

// gateLeafViews queries a tool by canonical, primary path and each alias.
func gateLeafViews(c *catalog.Catalog, t *catalog.ToolSpec) error {
	want := mustJSON(t)
	for _, q := range []catalog.Query{{Path: t.Identity.CanonicalPath}, {Path: t.Identity.PrimaryCLIPath}, {CLIPath: t.Identity.PrimaryCLIPath}} {
		got, err := c.Payload(q)
		if err != nil || !bytes.Equal(mustJSON(got), want) {
			return fmt.Errorf("query %+v does not return the tool's payload (%v)", q, err)
		}
	}
	for _, a := range t.Identity.Aliases {
		got, err := c.Payload(catalog.Query{Path: a})
		if err != nil {
			return err
		}
		if err := AliasViewProblem(want, mustJSON(got), a); err != nil {
			return err
		}
	}
	return nil
}

// AliasViewProblem reports how an alias payload differs from the primary
// one other than in cli_path (= the alias) and is_alias (= true).
func AliasViewProblem(primary, alias []byte, path string) error {
	var p, a map[string]any
	if err := errors.Join(json.Unmarshal(primary, &p), json.Unmarshal(alias, &a)); err != nil {
		return err
	}
	if a["cli_path"] != path || a["is_alias"] != true {
		return fmt.Errorf("alias view of %q has cli_path %v, is_alias %v", path, a["cli_path"], a["is_alias"])
	}
	for _, k := range []string{"cli_path", "is_alias"} {
		delete(p, k)
		delete(a, k)
	}
	if !reflect.DeepEqual(p, a) {
		return fmt.Errorf("alias view of %q differs in more than cli_path and is_alias", path)
	}
	return nil
}

// gateProducts checks product queries and the overview against the
// ToolSpec summaries.
func gateProducts(c *catalog.Catalog, reg *catalog.Registry) error {
	ov, err := c.Overview()
	if err != nil {
		return fmt.Errorf("delivery gate: overview: %w", err)
	}
	if n := len(mapOf(ov)["products"].([]any)); n != len(reg.Products) {
		return fmt.Errorf("delivery gate: overview lists %d products, want %d", n, len(reg.Products))
	}
	for i := range reg.Products {
		p := &reg.Products[i]
		want, err := p.SummaryPayload()
		if err != nil {
			return err
		}
		got, err := c.Payload(catalog.Query{Path: p.ID})
		if err != nil || !sameJSON(mapOf(got)["product"], want) {
			return fmt.Errorf("delivery gate: product %s differs from its ToolSpec summaries (%v)", p.ID, err)
		}
	}
	return nil
}

func mapOf(v any) map[string]any {
	var m map[string]any
	_ = json.Unmarshal(mustJSON(v), &m)
	return m
}

// gateAll checks that --all holds every tool exactly once, equal to its
// full payload.
func gateAll(c *catalog.Catalog, reg *catalog.Registry) error {
	var buf bytes.Buffer
	if err := c.WriteAll(&buf, false); err != nil {
		return fmt.Errorf("delivery gate: --all: %w", err)
	}
	var all struct {
		Products []struct {
			Tools []json.RawMessage `json:"tools"`
		} `json:"products"`
	}
	if err := json.Unmarshal(buf.Bytes(), &all); err != nil {
		return fmt.Errorf("delivery gate: --all: %w", err)
	}
	want := map[string][]byte{}
	for _, t := range reg.Tools() {
		want[t.Identity.CanonicalPath] = mustJSON(t)
	}
	for _, p := range all.Products {
		for _, raw := range p.Tools {
			if err := takeAll(want, raw); err != nil {
				return err
			}
		}
	}
	if len(want) > 0 {
		return fmt.Errorf("delivery gate: --all lacks %v", sortedKeys(want))
	}
	return nil
}

func takeAll(want map[string][]byte, raw json.RawMessage) error {
	var id struct {
		CanonicalPath string `json:"canonical_path"`
	}
	_ = json.Unmarshal(raw, &id)
	w, ok := want[id.CanonicalPath]
	var compact bytes.Buffer
	if !ok || json.Compact(&compact, raw) != nil || !bytes.Equal(compact.Bytes(), w) {
		return fmt.Errorf("delivery gate: --all tool %q is extra, repeated or differs", id.CanonicalPath)
	}
	delete(want, id.CanonicalPath)
	return nil
}
