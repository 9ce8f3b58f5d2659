package catalog

// compactDrop lists the keys --compact removes from envelopes, products and
// tools (dws stripSchemaPayloadCompact).
var compactDrop = map[string]bool{
	"agent_metadata_source": true, "agent_source_refs": true, "agent_summary_source": true,
	"effect_source": true, "metadata_source": true, "source": true, "agent_metadata": true,
	"interface_metadata": true, "field_provenance": true, "reviewed": true, "name": true,
	"path": true, "cli_name": true, "primary_cli_path": true, "is_alias": true,
	"has_parameters": true, "parameter_count": true, "product_id": true, "display": true,
	"title": true, "group": true, "source_product_id": true, "aliases": true,
	"catalog_hash": true, "surface_hash": true, "workflow_refs": true, "prerequisites": true,
	"tips": true, "interface_ref": true,
}

// compactParamDrop lists the keys --compact removes from each parameter.
var compactParamDrop = map[string]bool{
	"interface_description": true, "interface_type": true, "property": true, "field_provenance": true,
}

// compactValue strips a decoded payload (envelope, product or tool) in
// place. Parameter names are map keys and are never stripped.
func compactValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		compactObject(x)
	case []any:
		for _, e := range x {
			compactValue(e)
		}
	}
	return v
}

func compactObject(m map[string]any) {
	for k := range m {
		if compactDrop[k] {
			delete(m, k)
		}
	}
	for k, v := range m {
		if k == "parameters" {
			compactParams(v)
			continue
		}
		if k == "product" || k == "products" || k == "tools" {
			compactValue(v)
		}
	}
}

func compactParams(v any) {
	params, _ := v.(map[string]any)
	for _, p := range params {
		pm, _ := p.(map[string]any)
		for k := range pm {
			if compactParamDrop[k] {
				delete(pm, k)
			}
		}
	}
}
