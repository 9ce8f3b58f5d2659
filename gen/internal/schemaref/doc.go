// Package schemaref is the one reading of a JSON Schema 2020-12
// document's structure that the generator's stages share: where
// subschemas sit (Each, Walk), and, in an Index, the base URI in effect
// at every subschema, the resources embedded under "$id", the anchors and
// every reference, with Resolve turning a reference into the JSON pointer
// of its target. gen/validate checks a spec's references with it and
// gen/ir builds the schema graph with it, so the two stages cannot
// disagree about what a reference means.
package schemaref
