package ir

import (
	"github.com/cetpgen/cetpgen/gen/source"
	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// Provider is one CETP v2 Provider, resolved.
type Provider struct {
	// Slug names the Provider's output directories: the spec directory's
	// base name, reduced to lowercase letters, digits and hyphens.
	Slug string
	// Dir is the spec directory as the user named it.
	Dir string
	// File is the display path of provider.yaml.
	File        string
	ID          string
	Name        string
	Description string
	Android     Android
	// Versions are the CETP major versions served, ascending.
	Versions     []int
	Capabilities []protocol.Capability
	Limits       Limits
	// Scopes are ordered by name.
	Scopes []*Scope
	// Tools are ordered by name.
	Tools   []*Tool
	Targets Targets
	// CLIProduct is the catalog product: cli.product, or Slug.
	CLIProduct string
	// Revision is the tool set's content hash (see the package doc).
	Revision string
	// Decls are the schema nodes that are named types, over all tools, in
	// naming order (tools by name, input before output, depth first).
	Decls []*Node
	// Kotlin are the Provider-level Kotlin names.
	Kotlin KotlinNames

	pos func(ptr string) source.Pos
}

// PosOf returns the position in provider.yaml of the value at the JSON
// pointer ptr (or of its nearest enclosing value).
func (p *Provider) PosOf(ptr string) source.Pos { return p.pos(ptr) }

// DualStack reports whether the Provider serves CETP v1 beside v2.
func (p *Provider) DualStack() bool { return len(p.Versions) > 0 && p.Versions[0] == 1 }

// Has reports whether the Provider declares capability c.
func (p *Provider) Has(c protocol.Capability) bool {
	for _, have := range p.Capabilities {
		if have == c {
			return true
		}
	}
	return false
}

// Scope returns the scope named name, or nil.
func (p *Provider) Scope(name string) *Scope {
	for _, s := range p.Scopes {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// Android holds the Android facts of a Provider.
type Android struct {
	Package   string
	Authority string
}

// Limits are the Provider's negotiated limits, defaults applied.
type Limits struct {
	MaxRequestBytes          int64
	MaxInlineResultBytes     int64
	MaxConcurrentRequests    int64
	IdempotencyWindowSeconds int64
}

// Protocol minimums of CETP v2 §2.2, the defaults of absent limits.
const (
	MinRequestBytes          = protocol.MinRequestBytes
	MinInlineResultBytes     = protocol.MinInlineResultBytes
	MinConcurrentRequests    = protocol.MinConcurrentRequests
	MinIdempotencyWindowSecs = protocol.MinIdempotencyWindowSecs
)

// Scope is one authorization scope (CETP v2 §3.2).
type Scope struct {
	Name        string
	Title       string
	Description string
	Access      protocol.Access
	Sensitivity protocol.Sensitivity
	Pos         source.Pos
}

// Targets are the resolved names each generator uses.
type Targets struct {
	// GoPackage is the Go package name of the generated Provider package.
	GoPackage string
	// GoServerDir is the slash-separated directory of the Go server
	// skeleton under the output root: targets.go.server, else cmd/<slug>.
	GoServerDir string
	// KotlinPackage and KotlinClass name the generated Kotlin Provider.
	KotlinPackage string
	KotlinClass   string
	// KotlinService is the class of the discovery service that the
	// Kotlin target generates and the manifest declares.
	KotlinService string
}

// Tool is one tool of a Provider.
type Tool struct {
	Name        string
	Title       string
	Description string
	// File is the display path of the tool's file.
	File   string
	Input  *Schema
	Output *Schema
	// Scopes are the scopes the tool needs, ordered by name.
	Scopes      []*Scope
	Annotations Annotations
	// CLI is nil when the tool file has no cli block.
	CLI *ToolCLI
	// CLIPath is the tool's command path: cli.path, or the default the
	// spec language gives a tool without one (validate.DefaultCLIPath).
	CLIPath string
	// Names are the tool's identifiers in the targets.
	Names ToolNames

	pos func(ptr string) source.Pos
}

// PosOf returns the position in the tool's file of the value at the JSON
// pointer ptr (or of its nearest enclosing value).
func (t *Tool) PosOf(ptr string) source.Pos { return t.pos(ptr) }

// Annotations are the seven safety annotations of CETP v2 §3.4.
type Annotations struct {
	Effect       protocol.Effect
	Risk         protocol.Risk
	Destructive  bool
	Idempotent   bool
	OpenWorld    bool
	Confirmation protocol.Confirmation
	Execution    protocol.Execution
}

// ToolCLI is a tool's command-line facts for the catalog.
type ToolCLI struct {
	Path string
	// Aliases are ordered as written; they are alternative paths.
	Aliases   []string
	Summary   string
	UseWhen   []string
	AvoidWhen []string
	Examples  []string
}

// Schema is a JSON Schema 2020-12 document of a tool.
type Schema struct {
	// Value is the decoded document: map[string]any, []any, string,
	// json.Number (the exact literal written), bool or nil.
	Value any
	// JSON is the canonical encoding of Value (see Canonical).
	JSON []byte
	// Ptr is where the schema sits in its tool file ("/input_schema").
	Ptr string
	// Graph is the resolved, classified and named schema model: what
	// every target types the schema's values by.
	Graph *Graph

	pos func(ptr string) source.Pos
}

// PosOf returns the position of the schema value at ptr, a JSON pointer
// relative to the schema's root ("" is the schema itself).
func (s *Schema) PosOf(ptr string) source.Pos { return s.pos(s.Ptr + ptr) }
