// Package gen is cetpgen's pipeline: load -> validate -> IR -> emit ->
// write. It is the one place that knows the order of the stages; each stage
// is a package of its own that returns values and never writes files:
//
//	gen/spec      LOAD      strict YAML -> Docs (JSON values + node index)
//	gen/validate  VALIDATE  meta-schemas, JSON Schemas, CETP rules, lints
//	gen/ir        IR        resolved, sorted, immutable model
//
// Imports flow one way, from the CLI down to the stages and from each stage
// to the ones before it; import_test.go keeps it so.
package gen
