package catalog

import (
	"github.com/cetpgen/cetpgen/runtime/catalog"
	"github.com/spf13/cobra"
)

// MetadataSource is a reviewed metadata file: safety, interface
// disposition and parameter overlays per canonical path (dws
// schema_hints/metadata/<product>.json).
type MetadataSource struct {
	Version int                     `json:"version"`
	Source  SourceInfo              `json:"source"`
	Tools   map[string]ToolMetadata `json:"tools"`
	Ref     string                  `json:"-"` // file path or generator id, for provenance
}

// SourceInfo names a source and says whether it is reviewed.
type SourceInfo struct {
	Name     string `json:"name"`
	Reviewed bool   `json:"reviewed"`
}

// ToolMetadata is the reviewed metadata of one tool. Empty strings and nil
// pointers mean "no opinion".
type ToolMetadata struct {
	Title           string                      `json:"title,omitempty"`
	Description     string                      `json:"description,omitempty"`
	Effect          string                      `json:"effect,omitempty"`
	Risk            string                      `json:"risk,omitempty"`
	Confirmation    string                      `json:"confirmation,omitempty"`
	Idempotency     string                      `json:"idempotency,omitempty"`
	InterfaceMode   string                      `json:"interface_mode,omitempty"`
	Availability    string                      `json:"availability,omitempty"`
	InterfaceRef    *catalog.InterfaceRef       `json:"interface_ref,omitempty"`
	InterfaceReason string                      `json:"interface_reason,omitempty"`
	Reviewed        bool                        `json:"reviewed"`
	ReviewReason    string                      `json:"review_reason,omitempty"`
	Parameters      map[string]ParameterOverlay `json:"parameters,omitempty"`
	Constraints     *catalog.Constraints        `json:"constraints,omitempty"`
	Positionals     []catalog.Positional        `json:"positionals,omitempty"`
	DryRun          *catalog.DryRun             `json:"dry_run,omitempty"`
}

// ParameterOverlay is a reviewed override of one existing flag; pointers
// keep an explicit false apart from absence.
type ParameterOverlay struct {
	Description   *string `json:"description,omitempty"`
	Property      *string `json:"property,omitempty"`
	InterfaceType *string `json:"interface_type,omitempty"`
	Required      *bool   `json:"required,omitempty"`
	RequiredWhen  *string `json:"required_when,omitempty"`
}

// SelectionSource is a reviewed selection file: Agent prose per product
// and per tool (dws schema_hints/selection/<product>.json).
type SelectionSource struct {
	Version  int                         `json:"version"`
	Source   SourceInfo                  `json:"source"`
	Products map[string]ProductSelection `json:"products,omitempty"`
	Tools    map[string]ToolSelection    `json:"tools,omitempty"`
	Ref      string                      `json:"-"`
}

// ProductSelection is the reviewed prose of one product.
type ProductSelection struct {
	AgentSummary string   `json:"agent_summary"`
	UseWhen      []string `json:"use_when"`
	AvoidWhen    []string `json:"avoid_when"`
	Reviewed     bool     `json:"reviewed"`
	ReviewReason string   `json:"review_reason,omitempty"`
	SourceRefs   []string `json:"source_refs,omitempty"`
}

// ToolSelection is the reviewed prose of one tool.
type ToolSelection struct {
	AgentSummary string   `json:"agent_summary"`
	UseWhen      []string `json:"use_when"`
	AvoidWhen    []string `json:"avoid_when"`
	Examples     []string `json:"examples"`
	Reviewed     bool     `json:"reviewed"`
	ReviewReason string   `json:"review_reason,omitempty"`
	SourceRefs   []string `json:"source_refs,omitempty"`
}

// Bindings maps CLI flags to interface properties (dws
// schema_parameter_bindings.json): Tools[canonical][flag] = property, and
// reasoned exclusions keyed "<canonical> --<flag>".
type Bindings struct {
	Version           int                          `json:"version"`
	Tools             map[string]map[string]string `json:"bindings"`
	MappingExclusions map[string]string            `json:"mapping_exclusions,omitempty"`
	Ref               string                       `json:"-"`
}

// TypedSource is typed parameter metadata a generator knows from a schema
// (type facts, formats, enums, constraints, positionals), per tool.
type TypedSource struct {
	Ref   string
	Tools map[string]TypedTool
}

// TypedTool is the typed metadata of one tool.
type TypedTool struct {
	Parameters  map[string]TypedParameter
	Constraints *catalog.Constraints
	Positionals []catalog.Positional
}

// TypedParameter is the typed metadata of one flag.
type TypedParameter struct {
	Description string
	Format      string
	Enum        []string
	Example     any
	Required    *bool
}

// InterfaceFacts are the pinned, sanitized interface facts: for CETP, the
// Provider tools a command calls, pinned to (provider id, tool name,
// revision). They never create commands; they only describe them.
type InterfaceFacts struct {
	Version        int                      `json:"version"`
	Source         string                   `json:"source"`
	SourceRevision string                   `json:"source_revision"`
	Services       []string                 `json:"services"`
	Pinned         []catalog.InterfaceRef   `json:"pinned,omitempty"`
	Tools          map[string]InterfaceTool `json:"tools"`
	Ref            string                   `json:"-"`
}

// InterfaceTool is the pinned interface of one command.
type InterfaceTool struct {
	Title       string                    `json:"title,omitempty"`
	Description string                    `json:"description,omitempty"`
	Ref         catalog.InterfaceRef      `json:"interface_ref"`
	Revision    string                    `json:"revision,omitempty"`
	Parameters  map[string]InterfaceParam `json:"parameters,omitempty"` // keyed by property
	Annotations *Annotations              `json:"annotations,omitempty"`
}

// InterfaceParam is one pinned interface property.
type InterfaceParam struct {
	Type        string   `json:"type,omitempty"`
	Description string   `json:"description,omitempty"`
	Required    bool     `json:"required,omitempty"`
	Enum        []string `json:"enum,omitempty"`
}

// Annotations are the CETP v2 tool annotations (cetp-v2 §3.4), which map to
// safety values at the `imported` precedence.
type Annotations struct {
	Effect       string `json:"effect"`       // read | create | update | delete | transaction
	Risk         string `json:"risk"`         // low | moderate | high
	Destructive  bool   `json:"destructive"`  //
	Idempotent   bool   `json:"idempotent"`   //
	Confirmation string `json:"confirmation"` // never | provider_policy | always
}

// Input is everything a catalog is built from. Root builds the live cobra
// tree; it is called once per generation, so two generations bind two
// independent trees.
type Input struct {
	Root        func() *cobra.Command
	RegistryRef string
	Registry    *CommandRegistry
	Additions   []ManualAddition
	Exclusions  []Exclusion
	Metadata    []MetadataSource
	Selection   []SelectionSource
	Bindings    *Bindings
	Typed       *TypedSource
	Interfaces  *InterfaceFacts
}
