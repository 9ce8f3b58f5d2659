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
// The flag rule works on the IR's schema graph of the input schema
// (gen/ir): every declared member of the input object gets the flag the
// IR named for it (ir.Prop.CLIFlag: lowercase, "_" and a camelCase hump
// become "-"; none when that is not a flag name, is json, socket,
// timeout, request-id or help, or two members would share it). The
// flag's kind comes from the member's node as the graph classified it,
// "$ref" (pointers, anchors, embedded resources), allOf and one-branch
// unions resolved: a string, integer, number or boolean (nullable or
// not) is a scalar flag; a string enum is an enum flag that accepts its
// values only (a const or an enum of other values is a flag of its type,
// checked by the Provider); an array whose items are such a scalar is a
// repeatable flag, one item per occurrence; anything else (objects,
// unions, tuples, arrays of objects, any JSON) is a flag that takes the
// member's value as JSON. A flag's help is the member's description
// (else its name) and hints: "required" when the input requires the
// member, the enum values, the format, repetition, JSON. The --json flag
// takes the whole args object; flags given beside it set their
// properties over it, and a member without a flag is reachable through
// --json only.
package cli
