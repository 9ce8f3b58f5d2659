// Package catalog is the generation-time half of the CETP catalog, the
// library form of spec/dws-agent-schema.md for any Cobra CLI.
//
// The flow is one-way: a reviewed CommandRegistry (closed JSON Schema,
// strict decoding) plus reviewed manual additions form the
// EffectiveRegistry; Bind resolves every path and alias to one runnable leaf
// of the live cobra tree and proves every public leaf bound or excluded by
// an exact, reasoned exclusion; the resolvers pick every field once, by a
// fixed value-neutral precedence, from the sources (registry identity, cobra
// flags and help, reviewed metadata and selection, parameter bindings, typed
// parameter metadata, pinned interface facts), recording the winner and
// every candidate in field_provenance; the result is one typed
// runtime/catalog.Registry, which the gates check before it is serialized
// into the byte-stable schema_catalog.json and its index.
//
// Sources are plain Go values, so a generator can feed them from memory
// (cetpgen feeds them from Provider specs); LoadDir reads the same sources
// from reviewed JSON files for hand-written CLIs.
package catalog
