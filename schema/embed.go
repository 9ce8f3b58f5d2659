// Package schema embeds the meta-schemas of the cetpgen spec language, the
// contract every provider.yaml and tool file is checked against.
package schema

import _ "embed"

// Provider is schema/provider.schema.json, the meta-schema of provider.yaml.
//
//go:embed provider.schema.json
var Provider []byte

// Tool is schema/tool.schema.json, the meta-schema of tools/<name>.yaml.
//
//go:embed tool.schema.json
var Tool []byte

// ProviderURL and ToolURL are the $id of each meta-schema.
const (
	ProviderURL = "https://cetpgen.dev/schema/provider.schema.json"
	ToolURL     = "https://cetpgen.dev/schema/tool.schema.json"
)
