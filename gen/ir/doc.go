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
package ir
