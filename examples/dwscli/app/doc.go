// Package app reconstructs the command tree of the real dws CLI (at commit
// e69a1084) from its reviewed inputs, so that the catalog library can be
// run on dws's own sources as they are: every registry path and exclusion
// becomes a runnable leaf, every bound, mapping-excluded or hidden
// (removed) flag a flag of its command.
//
// The tree has the shape of dws's: the global persistent flags --format,
// --jq and --fields on the root; flags shared by every leaf of a group
// declared once on the group as persistent flags, and so inherited;
// aliases that change only the last word are Cobra aliases of the leaf,
// other aliases separate compatibility leaves with the same flags; dws's
// own `completion` and `schema` leaves; Cobra's built-in help command.
//
// The flags are strings: the inputs name flags, not their types, which the
// catalog does not need to bind and gate.
package app
