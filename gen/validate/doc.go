// Package validate is the VALIDATE stage. It checks loaded spec files in
// four passes, collecting every diagnostic instead of stopping at the first:
//
//  1. the meta-schemas (schema/provider.schema.json, schema/tool.schema.json),
//     whose JSON-pointer errors are mapped back to YAML nodes;
//  2. every input_schema and output_schema as JSON Schema 2020-12: dialect,
//     $ref only inside the same document, then compilation with no loader;
//  3. the CETP v2 rules a spec can break (provider id namespace, version
//     sets, scope references, confirmation for dangerous tools, capability
//     dependencies, cli path uniqueness);
//  4. lint warnings that do not fail a run.
//
// Tools are checked in parallel, each worker with its own JSON Schema
// compiler, so a Provider of a thousand tools validates in well under a
// second on two cores.
package validate
