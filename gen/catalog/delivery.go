package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/cetpgen/cetpgen/gen/internal/par"
	"github.com/cetpgen/cetpgen/runtime/catalog"
)

// GateDelivery checks the delivered catalog through the production loader:
// the file decodes strictly into the same registry, every canonical, primary
// path and alias resolves to the same ToolSpec payload (aliases differing
// only in cli_path and is_alias), every stored compact form is the
// compaction of its full leaf, every product lists the same summaries,
// and --all holds every tool once with its full payload. The product gate
// runs beside the leaf gate; failures are reported in the order above.
func GateDelivery(reg *catalog.Registry, data, index []byte) error {
	c, err := catalog.Open(data, index)
	if err != nil {
		return fmt.Errorf("delivery gate: %w", err)
	}
	var want map[string][]byte
	var errLeaves, errProducts error
	par.Do(
		func() { want, errLeaves = gateLeaves(c, reg.Tools()) },
		func() { errProducts = gateProducts(c, reg) },
	)
	if errLeaves != nil {
		return errLeaves
	}
	return firstErr(errProducts, gateAll(c, want))
}

// gateLeaves runs gateLeafViews on every tool, spread over the CPUs, and
// returns the stored payload of each.
func gateLeaves(c *catalog.Catalog, tools []*catalog.ToolSpec) (map[string][]byte, error) {
	want := make([][]byte, len(tools))
	errs := make([]error, len(tools))
	par.EachWith(len(tools), func(scratch *[]byte, i int) {
		want[i], errs[i] = gateLeafViews(c, tools[i], scratch)
	})
	out := make(map[string][]byte, len(tools))
	for i, t := range tools {
		if errs[i] != nil {
			return nil, fmt.Errorf("delivery gate: %s: %w", t.Identity.CanonicalPath, errs[i])
		}
		out[t.Identity.CanonicalPath] = want[i]
	}
	return out, nil
}

// gateLeafViews decodes a tool through the production loader (a
// canonical query) and requires it to encode back to the stored bytes,
// which the serializer wrote from the resolved ToolSpec; the primary path
// must resolve to it, each alias must give the alias view, and the stored
// compact form must be the compaction of the stored leaf. It returns
// the stored payload, which --all copies. scratch is the worker's buffer
// for the encoding, reused from tool to tool.
func gateLeafViews(c *catalog.Catalog, t *catalog.ToolSpec, scratch *[]byte) ([]byte, error) {
	want, ok := c.StoredTool(t.Identity.CanonicalPath)
	if !ok {
		return nil, fmt.Errorf("the catalog does not store the tool")
	}
	got, err := c.Payload(catalog.Query{Path: t.Identity.CanonicalPath})
	if err == nil {
		*scratch, err = appendPayload((*scratch)[:0], got)
	}
	if err != nil || !bytes.Equal(*scratch, want) {
		return nil, fmt.Errorf("the canonical query does not return the stored payload (%v)", err)
	}
	if err := gateCompact(c, t.Identity.CanonicalPath, want); err != nil {
		return nil, err
	}
	if canonical, alias, ok := c.Resolve(t.Identity.PrimaryCLIPath); !ok || alias || canonical != t.Identity.CanonicalPath {
		return nil, fmt.Errorf("the primary path %q does not resolve to the tool", t.Identity.PrimaryCLIPath)
	}
	for _, a := range t.Identity.Aliases {
		got, err := c.Payload(catalog.Query{Path: a})
		if err != nil {
			return nil, err
		}
		view, err := appendPayload(nil, got)
		if err != nil {
			return nil, err
		}
		if err := AliasViewProblem(want, view, a); err != nil {
			return nil, err
		}
	}
	return want, nil
}

// gateCompact requires the stored --compact form of a tool, which leaf
// --compact and --all --compact copy, to be what the compaction code makes
// of its full leaf now, so that the stored forms cannot drift from it.
func gateCompact(c *catalog.Catalog, canonical string, full []byte) error {
	stored, ok := c.StoredCompact(canonical)
	want, err := catalog.CompactLeaf(full)
	if !ok || err != nil || !bytes.Equal(stored, want) {
		return fmt.Errorf("the stored compact form differs from the compaction of the full leaf (%v)", err)
	}
	return nil
}

// appendPayload appends the compact JSON of a query payload,
// json.Marshal(v): a leaf through its hand-written encoder.
func appendPayload(b []byte, v any) ([]byte, error) {
	if t, ok := v.(*catalog.ToolSpec); ok {
		return t.AppendJSON(b)
	}
	m, err := json.Marshal(v)
	return append(b, m...), err
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
		if err != nil || !bytes.Equal(productOf(got), mustJSON(want)) {
			return fmt.Errorf("delivery gate: product %s differs from its ToolSpec summaries (%v)", p.ID, err)
		}
	}
	return nil
}

// productOf is the compact JSON of the product of a product query.
func productOf(v any) []byte {
	var q struct {
		Product json.RawMessage `json:"product"`
	}
	_ = json.Unmarshal(mustJSON(v), &q)
	return q.Product
}

func mapOf(v any) map[string]any {
	var m map[string]any
	_ = json.Unmarshal(mustJSON(v), &m)
	return m
}

// gateAll checks --all: its skeleton (--all as written, each tool
// replaced by its canonical path) is valid JSON listing, product by
// product, exactly the registry's tools, each once; the tools themselves
// are the stored bytes the leaf gate decoded.
func gateAll(c *catalog.Catalog, want map[string][]byte) error {
	skeleton, err := c.AllSkeleton()
	if err != nil {
		return fmt.Errorf("delivery gate: --all: %w", err)
	}
	var all struct {
		Products []struct {
			ID    string   `json:"id"`
			Tools []string `json:"tools"`
		} `json:"products"`
		ToolCount int `json:"tool_count"`
	}
	if err := json.Unmarshal(skeleton, &all); err != nil {
		return fmt.Errorf("delivery gate: --all is not valid JSON: %w", err)
	}
	n := 0
	for _, p := range all.Products {
		for _, canonical := range p.Tools {
			if _, ok := want[canonical]; !ok {
				return fmt.Errorf("delivery gate: --all tool %q is extra or repeated", canonical)
			}
			delete(want, canonical)
			n++
		}
	}
	if len(want) > 0 || all.ToolCount != n {
		return fmt.Errorf("delivery gate: --all lacks %v or miscounts its %d tools", slices.Sorted(maps.Keys(want)), n)
	}
	return nil
}
