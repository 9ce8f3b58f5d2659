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

// JSONSchemaFlat is schema/jsonschema-2020-12.flat.json: the JSON Schema
// 2020-12 meta-schema with its vocabularies merged into one document, which
// cetpgen applies to every tool schema and tool.schema.json refers to (by
// the relative $ref jsonschema-2020-12.flat.json) for input_schema and
// output_schema.
//
//go:embed jsonschema-2020-12.flat.json
var JSONSchemaFlat []byte

// JSONSchemaFlatURL is the $id of JSONSchemaFlat.
const JSONSchemaFlatURL = "https://cetpgen.dev/schema/jsonschema-2020-12.flat.json"

// ProviderURL and ToolURL are the $id of each meta-schema.
const (
	ProviderURL = "https://cetpgen.dev/schema/provider.schema.json"
	ToolURL     = "https://cetpgen.dev/schema/tool.schema.json"
)
