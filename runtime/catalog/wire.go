package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"sync"
)

// toolWire is the full leaf payload (dws ToolSpec.ToPayload), its fields in
// key order so that struct and map encodings agree.
type toolWire struct {
	AgentMetadataSource string                     `json:"agent_metadata_source"`
	AgentSourceRefs     []string                   `json:"agent_source_refs"`
	AgentSummary        string                     `json:"agent_summary"`
	AgentSummarySource  string                     `json:"agent_summary_source"`
	Aliases             []string                   `json:"aliases,omitempty"`
	Availability        string                     `json:"availability"`
	AvoidWhen           []string                   `json:"avoid_when"`
	CanonicalPath       string                     `json:"canonical_path"`
	CLIName             string                     `json:"cli_name"`
	CLIPath             string                     `json:"cli_path"`
	Confirmation        string                     `json:"confirmation"`
	Constraints         *Constraints               `json:"constraints,omitempty"`
	Description         string                     `json:"description"`
	Display             string                     `json:"display"`
	DryRun              *DryRun                    `json:"dry_run,omitempty"`
	Effect              string                     `json:"effect"`
	EffectSource        string                     `json:"effect_source"`
	Examples            []string                   `json:"examples"`
	FieldProvenance     map[string]FieldProvenance `json:"field_provenance"`
	Group               string                     `json:"group,omitempty"`
	HasParameters       bool                       `json:"has_parameters"`
	Idempotency         string                     `json:"idempotency"`
	InterfaceMode       string                     `json:"interface_mode"`
	InterfaceReason     string                     `json:"interface_reason,omitempty"`
	InterfaceRef        *InterfaceRef              `json:"interface_ref,omitempty"`
	IsAlias             bool                       `json:"is_alias"`
	MetadataSource      string                     `json:"metadata_source,omitempty"`
	Name                string                     `json:"name"`
	ParameterCount      int                        `json:"parameter_count"`
	Parameters          map[string]ParameterSpec   `json:"parameters"`
	Path                string                     `json:"path"`
	Positionals         []Positional               `json:"positionals,omitempty"`
	PrimaryCLIPath      string                     `json:"primary_cli_path"`
	ProductID           string                     `json:"product_id"`
	Reviewed            bool                       `json:"reviewed"`
	Risk                string                     `json:"risk"`
	Source              string                     `json:"source"`
	SourceProductID     string                     `json:"source_product_id,omitempty"`
	Title               string                     `json:"title"`
	UseWhen             []string                   `json:"use_when"`
}

// summaryWire is a tool summary (dws ToolSpec.ToSummaryPayload).
type summaryWire struct {
	AgentMetadataSource string        `json:"agent_metadata_source"`
	AgentSummary        string        `json:"agent_summary"`
	AgentSummarySource  string        `json:"agent_summary_source"`
	Aliases             []string      `json:"aliases,omitempty"`
	Availability        string        `json:"availability"`
	AvoidWhen           []string      `json:"avoid_when"`
	CanonicalPath       string        `json:"canonical_path"`
	CLIName             string        `json:"cli_name"`
	CLIPath             string        `json:"cli_path"`
	Confirmation        string        `json:"confirmation"`
	Description         string        `json:"description"`
	DryRun              *DryRun       `json:"dry_run,omitempty"`
	Effect              string        `json:"effect"`
	Group               string        `json:"group,omitempty"`
	Idempotency         string        `json:"idempotency"`
	InterfaceMode       string        `json:"interface_mode"`
	InterfaceReason     string        `json:"interface_reason,omitempty"`
	InterfaceRef        *InterfaceRef `json:"interface_ref,omitempty"`
	MetadataSource      string        `json:"metadata_source,omitempty"`
	Name                string        `json:"name"`
	PrimaryCLIPath      string        `json:"primary_cli_path"`
	Reviewed            bool          `json:"reviewed"`
	Risk                string        `json:"risk"`
	Title               string        `json:"title"`
	UseWhen             []string      `json:"use_when"`
}

// strs returns s, or an empty non-nil slice, so that lists encode as [].
func strs(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// MarshalJSON writes the full leaf payload of t.
func (t ToolSpec) MarshalJSON() ([]byte, error) { return t.AppendJSON(nil) }

// UnmarshalJSON strictly decodes a full leaf payload into t.
func (t *ToolSpec) UnmarshalJSON(data []byte) error {
	var w toolWire
	if !parseLeaf(data, &w) {
		w = toolWire{}
		if err := DecodeStrict(data, &w); err != nil {
			return err
		}
	}
	if w.Path != w.CanonicalPath {
		return fmt.Errorf("tool %s: path %q differs from canonical_path", w.CanonicalPath, w.Path)
	}
	if w.ParameterCount != len(w.Parameters) || w.HasParameters != (len(w.Parameters) > 0) {
		return fmt.Errorf("tool %s: parameter_count or has_parameters disagrees with parameters", w.CanonicalPath)
	}
	*t = fromWire(&w)
	return nil
}

func (t *ToolSpec) wire() *toolWire {
	id, sel := &t.Identity, &t.Selection
	params := make(map[string]ParameterSpec, len(t.Parameters))
	for _, p := range t.Parameters {
		params[p.Name] = p.wire()
	}
	return &toolWire{
		AgentMetadataSource: sel.MetadataSource, AgentSourceRefs: strs(sel.SourceRefs),
		AgentSummary: sel.AgentSummary, AgentSummarySource: sel.AgentSummarySource,
		Aliases: id.Aliases, Availability: t.Interface.Availability, AvoidWhen: strs(sel.AvoidWhen),
		CanonicalPath: id.CanonicalPath, CLIName: id.CLIName, CLIPath: id.CLIPath,
		Confirmation: t.Safety.Confirmation, Constraints: nonEmpty(t.Constraints),
		Description: t.Description, Display: t.Display, DryRun: t.DryRun,
		Effect: t.Safety.Effect, EffectSource: t.Safety.EffectSource, Examples: strs(sel.Examples),
		FieldProvenance: provOrEmpty(t.Provenance), Group: id.Group, HasParameters: len(params) > 0,
		Idempotency: t.Safety.Idempotency, InterfaceMode: t.Interface.Mode,
		InterfaceReason: t.Interface.Reason, InterfaceRef: t.Interface.Ref, IsAlias: id.IsAlias,
		MetadataSource: t.MetadataSource, Name: id.Name, ParameterCount: len(params),
		Parameters: params, Path: id.CanonicalPath, Positionals: t.Positionals,
		PrimaryCLIPath: id.PrimaryCLIPath, ProductID: id.ProductID, Reviewed: sel.Reviewed,
		Risk: t.Safety.Risk, Source: id.Source, SourceProductID: id.SourceProductID,
		Title: t.Title, UseWhen: strs(sel.UseWhen),
	}
}

func fromWire(w *toolWire) ToolSpec {
	t := ToolSpec{
		Identity: IdentitySpec{ProductID: w.ProductID, SourceProductID: w.SourceProductID, Name: w.Name,
			CLIName: w.CLIName, CanonicalPath: w.CanonicalPath, CLIPath: w.CLIPath,
			PrimaryCLIPath: w.PrimaryCLIPath, Group: w.Group, Aliases: w.Aliases, IsAlias: w.IsAlias, Source: w.Source},
		Display: w.Display, Title: w.Title, Description: w.Description, MetadataSource: w.MetadataSource,
		Constraints: w.Constraints, Positionals: w.Positionals, DryRun: w.DryRun,
		Safety:    SafetySpec{Effect: w.Effect, EffectSource: w.EffectSource, Risk: w.Risk, Confirmation: w.Confirmation, Idempotency: w.Idempotency},
		Interface: InterfaceSpec{Mode: w.InterfaceMode, Availability: w.Availability, Ref: w.InterfaceRef, Reason: w.InterfaceReason},
		Selection: SelectionSpec{AgentSummary: w.AgentSummary, AgentSummarySource: w.AgentSummarySource,
			UseWhen: w.UseWhen, AvoidWhen: w.AvoidWhen, Examples: w.Examples, Reviewed: w.Reviewed,
			SourceRefs: w.AgentSourceRefs, MetadataSource: w.AgentMetadataSource},
		Provenance: w.FieldProvenance,
	}
	for _, name := range slices.Sorted(maps.Keys(w.Parameters)) {
		p := w.Parameters[name]
		p.Name = name
		t.Parameters = append(t.Parameters, p)
	}
	return t
}

func (p ParameterSpec) wire() ParameterSpec {
	p.Provenance = provOrEmpty(p.Provenance)
	return p
}

func nonEmpty(c *Constraints) *Constraints {
	if c.Empty() {
		return nil
	}
	return c
}

func provOrEmpty(m map[string]FieldProvenance) map[string]FieldProvenance {
	if m == nil {
		return map[string]FieldProvenance{}
	}
	return m
}

// Summary returns the summary payload of t (dws ToSummaryPayload).
func (t *ToolSpec) Summary() any { return t.summaryWire() }

func (t *ToolSpec) summaryWire() *summaryWire {
	id, sel := &t.Identity, &t.Selection
	return &summaryWire{
		AgentMetadataSource: sel.MetadataSource, AgentSummary: sel.AgentSummary,
		AgentSummarySource: sel.AgentSummarySource, Aliases: id.Aliases, Availability: t.Interface.Availability,
		AvoidWhen: strs(sel.AvoidWhen), CanonicalPath: id.CanonicalPath, CLIName: id.CLIName, CLIPath: id.CLIPath,
		Confirmation: t.Safety.Confirmation, Description: t.Description, DryRun: t.DryRun, Effect: t.Safety.Effect,
		Group: id.Group, Idempotency: t.Safety.Idempotency, InterfaceMode: t.Interface.Mode,
		InterfaceReason: t.Interface.Reason, InterfaceRef: t.Interface.Ref, MetadataSource: t.MetadataSource,
		Name: id.Name, PrimaryCLIPath: id.PrimaryCLIPath, Reviewed: sel.Reviewed, Risk: t.Safety.Risk,
		Title: t.Title, UseWhen: strs(sel.UseWhen),
	}
}

// AliasView returns a copy of t as seen through path, one of its aliases:
// only cli_path and is_alias differ.
func (t ToolSpec) AliasView(path string) ToolSpec {
	t.Identity.CLIPath = path
	t.Identity.IsAlias = path != t.Identity.PrimaryCLIPath
	return t
}

// DecodeStrict decodes the JSON value data into v, rejecting unknown
// fields and trailing data. Every catalog input and output is read with it.
func DecodeStrict(data []byte, v any) error {
	d := decoders.Get().(*strictDecoder)
	start := d.dec.InputOffset()
	d.src.data = data
	if err := d.dec.Decode(v); err != nil {
		return err // the decoder's state is unknown: it is dropped
	}
	end := int(d.dec.InputOffset() - start)
	if end != len(data) {
		// Whatever follows the value may sit in the decoder's buffer, so
		// the decoder is dropped.
		if rest := bytes.TrimSpace(data[end:]); len(rest) > 0 {
			return fmt.Errorf("trailing data after JSON value")
		}
		return nil
	}
	decoders.Put(d)
	return nil
}

// strictDecoder is a json.Decoder that disallows unknown fields, reading
// one document after another from src. A decoder goes back to the pool
// only after a document it decoded whole, so that its buffer, grown once
// to the size of a leaf, serves the next one with nothing left over:
// decoding every leaf of a catalog then does not grow a fresh buffer per
// leaf.
type strictDecoder struct {
	src docReader
	dec *json.Decoder
}

var decoders = sync.Pool{New: func() any {
	d := &strictDecoder{}
	d.dec = json.NewDecoder(&d.src)
	d.dec.DisallowUnknownFields()
	return d
}}

// docReader reads the current document, then reports io.EOF.
type docReader struct{ data []byte }

func (r *docReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}
