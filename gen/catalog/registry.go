package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/cetpgen/cetpgen/runtime/catalog"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// RegistrySchemaRef is the required value of a registry's $schema.
const RegistrySchemaRef = "./schema_command_registry.schema.json"

// Visibility values of a CommandSpec; public commands enter the catalog.
const (
	Public   = "public"
	Compat   = "compat"
	Internal = "internal"
)

// Identity sources of a CommandSpec.
const (
	SourceRegistry = "reviewed_command_registry"
	SourceManual   = "reviewed_manual_addition"
)

// CommandRegistry is the reviewed registry: stable canonical identity,
// primary CLI path, aliases and visibility of every command.
type CommandRegistry struct {
	Schema   string            `json:"$schema"`
	Version  int               `json:"version"`
	Products []RegistryProduct `json:"products"`
}

// RegistryProduct groups the commands of one product.
type RegistryProduct struct {
	ID    string        `json:"id"`
	Tools []CommandSpec `json:"tools"`
}

// CommandSpec is one command of the registry.
type CommandSpec struct {
	CanonicalPath   string   `json:"canonical_path"`
	SourceProductID string   `json:"source_product_id,omitempty"`
	CLIPath         string   `json:"cli_path"`
	Aliases         []string `json:"aliases,omitempty"`
	Visibility      string   `json:"visibility,omitempty"`
	ProductID       string   `json:"-"`
	Source          string   `json:"-"`
	ReviewReason    string   `json:"-"`
}

// RegistrySchema returns the closed JSON Schema of the registry of a CLI
// whose root command is named root.
func RegistrySchema(root string) []byte {
	s := strings.NewReplacer("ROOT_TITLE", root, "ROOT_RE", jsonRegexp(regexp.QuoteMeta(root))).Replace(registrySchemaTemplate)
	return []byte(s)
}

func jsonRegexp(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

const registrySchemaTemplate = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://cetpgen.dev/schema/schema_command_registry.schema.json",
  "title": "ROOT_TITLE Reviewed Command Registry",
  "description": "Reviewed stable identity, primary CLI path, aliases and visibility of every Agent-visible command. Cross-field rules (unique products, canonicals, paths and aliases; canonical prefix equals the product id) are enforced by the Go loader and the Cobra binder.",
  "type": "object",
  "additionalProperties": false,
  "required": ["$schema", "version", "products"],
  "properties": {
    "$schema": {"const": "./schema_command_registry.schema.json"},
    "version": {"const": 1},
    "products": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/product"}}
  },
  "$defs": {
    "productId": {"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9_-]*$"},
    "cliPath": {
      "description": "exact Cobra path without the leading 'ROOT_TITLE', flags, wildcards or repeated whitespace",
      "type": "string",
      "pattern": "^[A-Za-z0-9][A-Za-z0-9._:-]*(?: [A-Za-z0-9][A-Za-z0-9._:-]*)*$",
      "not": {"pattern": "^ROOT_RE(?: |$)"}
    },
    "product": {
      "type": "object",
      "additionalProperties": false,
      "required": ["id", "tools"],
      "properties": {
        "id": {"$ref": "#/$defs/productId"},
        "tools": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/commandSpec"}}
      }
    },
    "commandSpec": {
      "type": "object",
      "additionalProperties": false,
      "required": ["canonical_path", "cli_path"],
      "properties": {
        "canonical_path": {"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9_-]*\\.[A-Za-z0-9][A-Za-z0-9_.-]*$"},
        "source_product_id": {"$ref": "#/$defs/productId"},
        "cli_path": {"$ref": "#/$defs/cliPath"},
        "aliases": {"type": "array", "uniqueItems": true, "default": [], "items": {"$ref": "#/$defs/cliPath"}},
        "visibility": {"enum": ["public", "compat", "internal"], "default": "public"}
      }
    }
  }
}
`

// DecodeRegistry validates data against RegistrySchema(root), decodes it
// strictly and checks the cross-field rules.
func DecodeRegistry(data []byte, root string) (*CommandRegistry, error) {
	if err := validateSchema(RegistrySchema(root), data); err != nil {
		return nil, fmt.Errorf("command registry does not match %s: %w", RegistrySchemaFile, err)
	}
	var r CommandRegistry
	if err := catalog.DecodeStrict(data, &r); err != nil {
		return nil, fmt.Errorf("command registry: %w", err)
	}
	return &r, r.normalize()
}

// normalize fills defaults and checks the rules JSON Schema cannot express.
func (r *CommandRegistry) normalize() error {
	products := map[string]bool{}
	for i := range r.Products {
		p := &r.Products[i]
		if products[p.ID] {
			return fmt.Errorf("command registry: duplicate product %q", p.ID)
		}
		products[p.ID] = true
		for j := range p.Tools {
			if err := p.Tools[j].normalize(p.ID, SourceRegistry); err != nil {
				return fmt.Errorf("command registry: %w", err)
			}
		}
	}
	return nil
}

func (c *CommandSpec) normalize(product, source string) error {
	c.ProductID, c.Source = product, source
	if c.Visibility == "" {
		c.Visibility = Public
	}
	if c.SourceProductID == product {
		c.SourceProductID = ""
	}
	if !strings.HasPrefix(c.CanonicalPath, product+".") {
		return fmt.Errorf("canonical path %q does not start with its product %q", c.CanonicalPath, product)
	}
	for _, a := range c.Aliases {
		if a == c.CLIPath {
			return fmt.Errorf("%s: alias %q repeats the primary path", c.CanonicalPath, a)
		}
	}
	return nil
}

// validateSchema validates the JSON document data against the JSON Schema
// schemaDoc; no $ref may leave the schema.
func validateSchema(schemaDoc, data []byte) error {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaDoc))
	if err != nil {
		return err
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(refuseLoader{})
	const url = "mem://schema.json"
	if err := c.AddResource(url, doc); err != nil {
		return err
	}
	sch, err := c.Compile(url)
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return sch.Validate(inst)
}

// refuseLoader is the URL loader of the registry's schema compiler: no $ref
// may reach the network or the file system.
type refuseLoader struct{}

// Load refuses every URL.
func (refuseLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("loading %s is not allowed", url)
}
