// Package authz holds ready Authorizers for a Provider (provider.Options.
// Authorizer), the answer to "who holds which scope" that the engine asks
// on every call of a tool with scopes (CETP v2 §7.2):
//
//   - Owner: the UID that runs the Provider holds every scope of its
//     catalogue, the natural rule of a Provider used by its own user;
//   - Grants: a grants file maps caller UIDs to scopes, optionally bound
//     to a package, a signing-certificate digest and an expiry (§7.1), and
//     is re-read when it changes, so a grant or a revocation takes effect
//     on the next call without a restart;
//   - Union: a caller holds what any of several Authorizers grants.
//
// None of them has a grant UI: a caller that lacks a scope is
// PERMISSION_DENIED, never AUTH_REQUIRED.
package authz
