// Package provider is the CETP v2 Provider engine: it answers negotiate,
// get_provider_info, list_tools and execute_tool for a set of registered
// tools, and does the work the ClawSeed SDK leaves to the app: input and
// output schema validation, per-call scope checks, Provider-side
// confirmation with single-use resume tokens, durable deduplication of
// every tool with effects, and per-caller concurrency limits.
//
// A Provider is built once with New from a Descriptor, the Tools and
// Options (store and app hooks). A transport captures the caller's identity
// at its entry and invokes Provider.Call with the method and the request
// Bundle; the returned Bundle is the response envelope. Resolutions that a
// response carries are launched back through Provider.Launch.
//
// The checks of execute_tool run in the order of DESIGN.md §5: envelope,
// tool visibility, args, scopes, deduplication, confirmation, deadline,
// handler in the store's transaction, output.
package provider
