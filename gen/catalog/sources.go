package catalog

import (
	"github.com/cetpgen/cetpgen/runtime/catalog"
	"github.com/cetpgen/cetpgen/runtime/protocol"
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

// SourceInfo names a source and says whether it is reviewed; kind,
// repository and channel describe where it comes from (dws writes
// "explicit", its repository and "open-source").
type SourceInfo struct {
	Kind       string `json:"kind,omitempty"`
	Name       string `json:"name"`
	Repository string `json:"repository,omitempty"`
	Channel    string `json:"channel,omitempty"`
	Reviewed   bool   `json:"reviewed"`
}

// ToolMetadata is the reviewed metadata of one tool. Empty strings and nil
// pointers mean "no opinion".
type ToolMetadata struct {
	Title           string                `json:"title,omitempty"`
	Description     string                `json:"description,omitempty"`
	Effect          string                `json:"effect,omitempty"`
	Risk            string                `json:"risk,omitempty"`
	Confirmation    string                `json:"confirmation,omitempty"`
	Idempotency     string                `json:"idempotency,omitempty"`
	InterfaceMode   string                `json:"interface_mode,omitempty"`
	Availability    string                `json:"availability,omitempty"`
	InterfaceRef    *catalog.InterfaceRef `json:"interface_ref,omitempty"`
	InterfaceReason string                `json:"interface_reason,omitempty"`
	Reviewed        bool                  `json:"reviewed"`
	ReviewReason    string                `json:"review_reason,omitempty"`
	// RuntimeGate is how the command itself makes the user confirm at run
	// time: none, confirm_delete, typed_yes or confirm_dangerous. When set,
	// the delivered confirmation must be user_required exactly when the
	// gate is not none (dws check-runtime-confirmation-truth).
	RuntimeGate string `json:"runtime_gate,omitempty"`
	// CLIPath, when set, names the command the entry was reviewed against:
	// it must be the tool's primary path or one of its aliases.
	CLIPath     string                      `json:"cli_path,omitempty"`
	Parameters  map[string]ParameterOverlay `json:"parameters,omitempty"`
	Constraints *catalog.Constraints        `json:"constraints,omitempty"`
	Positionals []catalog.Positional        `json:"positionals,omitempty"`
	DryRun      *catalog.DryRun             `json:"dry_run,omitempty"`
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
// reasoned exclusions keyed "<canonical> --<flag>". Removals and
// corrections are the reviewed history of bindings that went away or
// changed, keyed the same way; Baseline is the reviewed manifest the
// bindings were last accepted as.
type Bindings struct {
	Version           int                          `json:"version"`
	Baseline          *BindingsBaseline            `json:"baseline,omitempty"`
	Removals          map[string]BindingRemoval    `json:"removals,omitempty"`
	Tools             map[string]map[string]string `json:"bindings"`
	Corrections       map[string]BindingCorrection `json:"corrections,omitempty"`
	MappingExclusions map[string]string            `json:"mapping_exclusions,omitempty"`
	Ref               string                       `json:"-"`
}

// BindingsBaseline is the reviewed manifest of the active bindings: a
// name, its sha256 and why it was accepted.
type BindingsBaseline struct {
	Manifest string `json:"manifest"`
	SHA256   string `json:"sha256"`
	Reason   string `json:"reason"`
	Reviewed bool   `json:"reviewed"`
}

// BindingRemoval records a binding that was removed on purpose: the flag
// is no longer a parameter of the tool (gone, hidden or renamed to
// ReplacedBy, another "<canonical> --<flag>" key that is bound).
type BindingRemoval struct {
	Reason     string `json:"reason"`
	ReplacedBy string `json:"replaced_by,omitempty"`
	Reviewed   bool   `json:"reviewed"`
}

// BindingCorrection records a binding whose property was corrected from
// OldProperty to NewProperty; the active binding must be NewProperty, and
// Reason becomes the review_reason of the binding's provenance.
type BindingCorrection struct {
	OldProperty string `json:"old_property"`
	NewProperty string `json:"new_property"`
	Reason      string `json:"reason"`
	Reviewed    bool   `json:"reviewed"`
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
	Effect       protocol.Effect       `json:"effect"`
	Risk         protocol.Risk         `json:"risk"`
	Destructive  bool                  `json:"destructive"`
	Idempotent   bool                  `json:"idempotent"`
	Confirmation protocol.Confirmation `json:"confirmation"`
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
