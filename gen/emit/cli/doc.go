// Package cli is the catalog target: per Provider spec, a Go Consumer CLI
// (a main package on runtime/cetpcli) and the DWS catalog of its commands.
//
// The CLI is a data table, a cetpcli.App, which BuildApp derives from the
// IR: under the root "cetp-<slug>", one leaf command per tool at its
// cli.path (default: the product and the tool name as one word, with "-"
// for "_"), its
// aliases, and flags derived from the input schema by the flag rule
// below. The generator builds the cobra tree from the same App with
// cetpcli.NewRoot, feeds it with the other facts of the spec to
// gen/catalog (Input), and renders the App literal, main and the gated
// catalog as Go files. The binary therefore has exactly the tree the
// catalog was bound to.
//
// The flag rule: every top-level property of the input schema gets a flag
// named after it (lowercase; "_" and a camelCase hump become "-"), unless
// the name cannot be a flag (it must match cetpcli.FlagName after that
// change and not be json, socket, timeout or help) or two properties would share
// it. A local $ref ("#/$defs/x") is followed first. The flag's kind comes
// from the property's schema: a string, integer, number or boolean type
// (alone or with "null") is a scalar flag; an enum of strings is an enum
// flag that accepts its values only (an enum of other values is a flag of
// its type, checked by the Provider); an array whose items are such a
// scalar is a repeatable flag, one item per occurrence; anything else
// (objects, oneOf/anyOf/allOf, const, arrays of objects, no type) is a
// flag that takes the property's value as JSON. The --json flag takes the
// whole args object; flags given beside it set their properties over it,
// and a property without a flag is reachable through --json only.
package cli
