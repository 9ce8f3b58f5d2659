// Package confirm holds ready Confirmers for a Provider (provider.Options.
// Confirmer): Prompt asks on the Provider's own terminal and shows what
// CETP v2 §7.2 requires of a high-risk UI (the object, the action, the key
// arguments and, for destructive tools, that the change cannot be
// undone); provider.AutoDeny denies everything, the safe default when
// nobody can answer. OnlyAlways is the ConfirmPolicy that asks only for
// tools whose confirmation annotation is always.
package confirm
