package catalog

import (
	"encoding/json"
	"fmt"
)

// productWire is a product summary (dws ProductSpec.ToSummaryPayload); in
// --all, Tools holds full leaves instead of summaries.
type productWire struct {
	AgentMetadataSource string                     `json:"agent_metadata_source"`
	AgentSourceRefs     []string                   `json:"agent_source_refs"`
	AgentSummary        string                     `json:"agent_summary"`
	AgentSummarySource  string                     `json:"agent_summary_source"`
	AvoidWhen           []string                   `json:"avoid_when"`
	Description         string                     `json:"description"`
	FieldProvenance     map[string]FieldProvenance `json:"field_provenance"`
	ID                  string                     `json:"id"`
	Name                string                     `json:"name"`
	Runtime             bool                       `json:"runtime"`
	ToolCount           int                        `json:"tool_count"`
	Tools               []json.RawMessage          `json:"tools"`
	UseWhen             []string                   `json:"use_when"`
}

// headerWire is the `catalog` object of the catalog file without products.
type headerWire struct {
	AgentMetadata     AgentMetadata     `json:"agent_metadata"`
	Count             int               `json:"count"`
	InterfaceMetadata InterfaceMetadata `json:"interface_metadata"`
	Kind              string            `json:"kind"`
	Level             string            `json:"level"`
	Products          []json.RawMessage `json:"products"`
	Source            string            `json:"source"`
	ToolCount         int               `json:"tool_count"`
}

// Fixed values of the catalog object.
const (
	Kind          = "schema"
	CatalogSource = "embedded-command-catalog"
	// SnapshotVersion is the version of the catalog file format.
	SnapshotVersion = 1
)

// head returns the product summary fields of p, with no tools.
func (p *ProductSpec) head() *productWire {
	s := &p.Selection
	return &productWire{
		AgentMetadataSource: s.MetadataSource, AgentSourceRefs: strs(s.SourceRefs),
		AgentSummary: s.AgentSummary, AgentSummarySource: s.AgentSummarySource,
		AvoidWhen: strs(s.AvoidWhen), Description: p.Description,
		FieldProvenance: provOrEmpty(p.Provenance), ID: p.ID, Name: p.Name, Runtime: p.Runtime,
		ToolCount: len(p.Tools), Tools: []json.RawMessage{}, UseWhen: strs(s.UseWhen),
	}
}

// productFromWire rebuilds a ProductSpec (without tools) from its wire form.
func productFromWire(w *productWire) ProductSpec {
	return ProductSpec{ID: w.ID, Name: w.Name, Description: w.Description, Runtime: w.Runtime,
		Provenance: w.FieldProvenance,
		Selection: SelectionSpec{AgentSummary: w.AgentSummary, AgentSummarySource: w.AgentSummarySource,
			UseWhen: w.UseWhen, AvoidWhen: w.AvoidWhen, SourceRefs: w.AgentSourceRefs,
			MetadataSource: w.AgentMetadataSource}}
}

// SummaryPayload is the product summary with tool summaries.
func (p *ProductSpec) SummaryPayload() (any, error) {
	w := p.head()
	for i := range p.Tools {
		b, err := p.Tools[i].AppendSummaryJSON(nil)
		if err != nil {
			return nil, err
		}
		w.Tools = append(w.Tools, b)
	}
	return w, nil
}

// overviewEntry is one product of the overview: its id, tool count,
// schema path and the first available of agent_summary, use_when[0] and
// description.
type overviewEntry struct {
	AgentSummary string   `json:"agent_summary,omitempty"`
	Description  string   `json:"description,omitempty"`
	ID           string   `json:"id"`
	SchemaPath   string   `json:"schema_path"`
	ToolCount    int      `json:"tool_count"`
	UseWhen      []string `json:"use_when,omitempty"`
}

func (w *productWire) overview() overviewEntry {
	e := overviewEntry{ID: w.ID, SchemaPath: w.ID, ToolCount: w.ToolCount}
	switch {
	case w.AgentSummary != "":
		e.AgentSummary = w.AgentSummary
	case len(w.UseWhen) > 0:
		e.UseWhen = w.UseWhen[:1]
	default:
		e.Description = w.Description
	}
	return e
}

// checkHeader checks the fixed values of a decoded catalog header.
func checkHeader(h *headerWire) error {
	if h.Kind != Kind || h.Level != "catalog" || h.Source != CatalogSource {
		return fmt.Errorf("catalog header: kind/level/source are %q/%q/%q", h.Kind, h.Level, h.Source)
	}
	return nil
}
