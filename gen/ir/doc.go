// Package ir is the IR stage: the resolved, sorted model of one Provider
// spec that every emitter reads. Emitters never see YAML or wire structs.
//
// The IR is built once by Build from a validated spec and is never changed
// afterwards: emitters treat every node as read-only. Defaults are resolved
// (limits, target names, cli product), scope references are pointers to
// Scope nodes, slices are sorted (tools and scopes by name, versions and
// capabilities by value), and every node keeps the position of the YAML it
// came from so later stages can still point into the spec.
//
// Revision is the tool set's content hash (CETP v2 §3.3): a SHA-256 over a
// canonical JSON encoding of every tool's name, title, description, input
// and output schema, scopes with their access and sensitivity, and
// annotations. It changes exactly when the tools, their schemas or their
// safety semantics change, and never with file order, key order, comments,
// formatting or cli metadata.
//
// The schema graph (Schema.Graph, built by BuildGraph) is the one schema
// model every target types values by. Each subschema is one Node,
// however it is reached: "$ref" is resolved against the base URI of the
// resource it sits in (an embedded "$id" resource, its anchors, JSON
// pointers relative to it, "#" of the enclosing resource), recursion is a
// reference to a node still being built, and reference cycles admit any
// value. Each node is classified once (Kind: object with declared members
// and an ExtraPolicy, map, array, tuple, integer with its exact IntKind,
// number, string, enum, tagged union with its discriminator, open union,
// any JSON), never narrower than its schema: a shape the keywords do not
// pin down is a JSON value with typed views. Names are allocated once per
// declared node for Go and Kotlin (schema_names.go), in a fixed order, so
// no emitter invents a cross-target name. The types a schema admits
// (Types, Admitted in schema_types.go) are computed by one function that
// the graph and gen/diff share.
//
// The vocabulary (effects, risks, confirmation policies, execution modes,
// capabilities, accesses, sensitivities) is package protocol's: the IR's
// fields carry its types, so the generator and generated code cannot
// disagree.
package ir
