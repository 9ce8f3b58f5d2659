package catalog

import "encoding/json"

// Registry is the typed SchemaRegistry: every resolved product and tool of
// one CLI, in canonical order. Generators build it; the loader decodes the
// parts a query needs back into the same types.
type Registry struct {
	Header   Header
	Products []ProductSpec
}

// Header holds the catalog-level facts of the `catalog` object and of the
// overview.
type Header struct {
	AgentMetadata     AgentMetadata     `json:"agent_metadata"`
	InterfaceMetadata InterfaceMetadata `json:"interface_metadata"`
}

// AgentMetadata summarises the reviewed selection sources (dws
// `agent_metadata`).
type AgentMetadata struct {
	ProductsWithMetadata  int    `json:"products_with_metadata"`
	Source                string `json:"source"`
	SourceHash            string `json:"source_hash"`
	SurfaceHash           string `json:"surface_hash"`
	SurfaceProducts       int    `json:"surface_products"`
	SurfaceTools          int    `json:"surface_tools"`
	ToolsWithAgentSummary int    `json:"tools_with_agent_summary"`
	ToolsWithMetadata     int    `json:"tools_with_metadata"`
	UnmatchedSkillTools   int    `json:"unmatched_skill_tools"`
	Version               int    `json:"version"`
}

// InterfaceMetadata summarises the pinned interface facts (dws
// `interface_metadata`); for CETP a service is a Provider.
type InterfaceMetadata struct {
	Coverage       InterfaceCoverage `json:"coverage"`
	Source         string            `json:"source"`
	SourceHash     string            `json:"source_hash"`
	SourceRevision string            `json:"source_revision"`
	ToolCount      int               `json:"tool_count"`
	Version        int               `json:"version"`
}

// InterfaceCoverage counts how the pinned interfaces cover the tools.
type InterfaceCoverage struct {
	AliasedTools     int      `json:"aliased_tools"`
	MatchedTools     int      `json:"matched_tools"`
	MissingServices  []string `json:"missing_services"`
	SnapshotServices int      `json:"snapshot_services"`
	SourceServices   int      `json:"source_services"`
	SourceTools      int      `json:"source_tools"`
	SurfaceScope     string   `json:"surface_scope"`
	SurfaceTools     int      `json:"surface_tools"`
	UnmatchedTools   int      `json:"unmatched_tools"`
}

// ProductSpec is one product: the first token of its tools' paths.
type ProductSpec struct {
	ID          string
	Name        string
	Description string
	Runtime     bool
	Selection   SelectionSpec
	Provenance  map[string]FieldProvenance
	Tools       []ToolSpec
}

// ToolSpec is one resolved command: the single source of its leaf, summary,
// --all and catalog payloads.
type ToolSpec struct {
	Identity       IdentitySpec
	Display        string
	Title          string
	Description    string
	MetadataSource string
	Parameters     []ParameterSpec // sorted by flag name
	Constraints    *Constraints
	Positionals    []Positional
	DryRun         *DryRun
	Safety         SafetySpec
	Interface      InterfaceSpec
	Selection      SelectionSpec
	Provenance     map[string]FieldProvenance
}

// IdentitySpec is the bound identity of a tool; only the registry fills it.
type IdentitySpec struct {
	ProductID       string
	SourceProductID string
	Name            string
	CLIName         string
	CanonicalPath   string
	CLIPath         string
	PrimaryCLIPath  string
	Group           string
	Aliases         []string
	IsAlias         bool
	Source          string
}

// SafetySpec is the resolved safety of a tool.
type SafetySpec struct {
	Effect       string // read | write | destructive
	EffectSource string
	Risk         string // low | medium | high
	Confirmation string // not_required | user_required
	Idempotency  string // idempotent | non_idempotent | unknown
}

// InterfaceSpec is the interface disposition of a tool: Mode and
// Availability are orthogonal.
type InterfaceSpec struct {
	Mode         string // mcp | local | composite
	Availability string // available | unavailable
	Ref          *InterfaceRef
	Reason       string
}

// InterfaceRef pins one remote tool. For CETP, ProductID is the Provider id
// and RPCName the tool name.
type InterfaceRef struct {
	ProductID string `json:"product_id"`
	RPCName   string `json:"rpc_name"`
}

// SelectionSpec is the reviewed Agent selection prose.
type SelectionSpec struct {
	AgentSummary       string
	AgentSummarySource string
	UseWhen            []string
	AvoidWhen          []string
	Examples           []string
	Reviewed           bool
	SourceRefs         []string
	MetadataSource     string
}

// ParameterSpec is one flag of a tool, keyed on the wire by its flag name
// without dashes.
type ParameterSpec struct {
	Name                 string                     `json:"-"`
	CLIRequired          bool                       `json:"cli_required,omitempty"`
	Default              string                     `json:"default,omitempty"`
	Description          string                     `json:"description"`
	Enum                 []string                   `json:"enum,omitempty"`
	Example              json.RawMessage            `json:"example,omitempty"`
	Provenance           map[string]FieldProvenance `json:"field_provenance"`
	Format               string                     `json:"format,omitempty"`
	InterfaceDescription string                     `json:"interface_description,omitempty"`
	InterfaceType        string                     `json:"interface_type,omitempty"`
	Property             string                     `json:"property,omitempty"`
	Required             bool                       `json:"required"`
	RequiredWhen         string                     `json:"required_when,omitempty"`
	Type                 string                     `json:"type"`
}

// Constraints relate flags of one tool.
type Constraints struct {
	MutuallyExclusive [][]string `json:"mutually_exclusive,omitempty"`
	RequireOneOf      [][]string `json:"require_one_of,omitempty"`
	RequireTogether   [][]string `json:"require_together,omitempty"`
}

// Empty reports whether c relates no flags.
func (c *Constraints) Empty() bool {
	return c == nil || len(c.MutuallyExclusive)+len(c.RequireOneOf)+len(c.RequireTogether) == 0
}

// Positional is one positional argument of a tool.
type Positional struct {
	Description string `json:"description,omitempty"`
	Index       int    `json:"index"`
	Name        string `json:"name"`
	Required    bool   `json:"required"`
	Type        string `json:"type,omitempty"`
	Variadic    bool   `json:"variadic,omitempty"`
}

// DryRun describes a tool's preview mode.
type DryRun struct {
	PreviewKind string `json:"preview_kind"`
	RemoteReads bool   `json:"remote_reads,omitempty"`
}

// FieldProvenance records how one field was resolved: the winner and every
// candidate. Value is the JSON of the delivered value.
type FieldProvenance struct {
	Candidates           []Candidate     `json:"candidates"`
	OverriddenCandidates []Candidate     `json:"overridden_candidates,omitempty"`
	Precedence           string          `json:"precedence"`
	Resolution           string          `json:"resolution"`
	ReviewReason         string          `json:"review_reason,omitempty"`
	Source               string          `json:"source"`
	SourceRef            string          `json:"source_ref,omitempty"`
	Value                json.RawMessage `json:"value"`
}

// Candidate is one source's value for a field.
type Candidate struct {
	Precedence   string          `json:"precedence"`
	ReviewReason string          `json:"review_reason,omitempty"`
	Selected     bool            `json:"selected"`
	Source       string          `json:"source"`
	SourceRef    string          `json:"source_ref,omitempty"`
	Value        json.RawMessage `json:"value"`
}

// Tools returns every tool of r in canonical order of products then tools.
func (r *Registry) Tools() []*ToolSpec {
	var out []*ToolSpec
	for i := range r.Products {
		for j := range r.Products[i].Tools {
			out = append(out, &r.Products[i].Tools[j])
		}
	}
	return out
}

// ToolCount is the number of tools of r.
func (r *Registry) ToolCount() int {
	n := 0
	for i := range r.Products {
		n += len(r.Products[i].Tools)
	}
	return n
}
