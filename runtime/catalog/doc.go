// Package catalog is the runtime half of the CETP catalog: the typed
// SchemaRegistry model (ProductSpec, ToolSpec, ParameterSpec, SafetySpec,
// InterfaceSpec, SelectionSpec, FieldProvenance), the byte-stable
// schema_catalog.json serializer with its byte-offset index, the strict lazy
// loader of an embedded catalog, and the query projections (overview,
// product, group, leaf, alias view, --all, --compact) behind a ready-made
// cobra `schema` command.
//
// The wire keeps the key names of the real `dws schema` payloads. The
// catalog file has the dws envelope {catalog, source_hash, surface_hash,
// tools, version}, written exactly as json.MarshalIndent with two spaces
// would write it. Beside it the generator writes schema_catalog.index.json,
// the serialized SchemaIndex: every path and product with the byte spans of
// its pieces inside the catalog. A query decodes the small index and then
// only the spans it needs: a leaf decodes one tool, the overview decodes the
// catalog header and the product headers with their tool lists cut out, and
// --all copies the stored tool bytes, re-indented, without decoding them.
//
// This package never imports gen/: it runs inside CLIs.
package catalog
