// Package diff compares two versions of a Provider spec and tells a
// reviewer the consequences: which changes break Consumers, which change
// the safety contract, and how the tool-set revision moves.
//
// Compare walks the IR of both sides tool by tool and scope by scope and
// reports Changes, each under a Rule with a stable ID, a default Severity
// (breaking, dangerous, info) and a Category (safety, compatibility,
// bookkeeping). A repository Config may override severities and
// acknowledge specific changes (rule + tool); unacknowledged breaking or
// dangerous changes fail a run.
//
// Schema compatibility is decided structurally by CompareInput and
// CompareOutput, in a contract Mode: the new input schema must accept
// every instance the old one accepted, and the new output schema must
// accept only instances the old one accepted; in Declared mode (the
// default) only the instances valid against the declared reading count
// (DeclaredReading: objects that declare their properties are read as
// closed). The reasoning covers type (with type lists, and integer inside
// number), enum and const, numeric and length bounds, multipleOf, pattern
// (compared as regular languages on automata, regex.go), format (compared
// for equality), properties, required, additionalProperties, items,
// uniqueItems, local $ref (JSON pointers and anchors, recursive
// definitions included) and allOf, anyOf and oneOf, split branch by
// branch by type, by value (judged with jsonschema/v6) or by pattern
// where no single branch decides. Where containment is not decidable,
// the finding is undecided and names the keyword: never a silent pass.
// soundness_test.go checks every compatible verdict against
// jsonschema/v6 on generated schema pairs and instances.
//
// The comparison shares the schema graph's primitives rather than
// redoing them: $ref resolves through gen/internal/schemaref as the graph
// resolves it (node.go resolve, check.go deref), and the types a schema
// admits are ir.Admitted, the graph's own type admission. It does not
// read the graph's node kinds: a kind says how targets type a value and
// is never narrower than the schema, so it drops constraints (a oneOf of
// bare "required" lists, a non-string discriminator, multi-value enums)
// that containment must decide.
//
// Reports are written as Markdown for a pull-request comment, as JSON, or
// as GitHub workflow annotations on the changed lines of the new spec.
// GitFS reads the old (or new) side from a git revision.
package diff
