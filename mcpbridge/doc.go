// Package mcpbridge presents a CETP v2 Provider as an MCP server (the
// Model Context Protocol, through its official Go SDK), without weakening
// any CETP guarantee: `cetp mcp --socket PATH` serves it on stdio, and
// New/Run embed it in another Go program. The bridge is a CETP Consumer
// (runtime/consumer) of the Provider behind its transport, with that
// transport's identity; the MCP host is only the bridge's client.
//
//   - tools/list is answered from a fresh list_tools (what the Provider
//     shows this identity): descriptions marked as untrusted Provider text
//     and capped, schemas as given, the safety annotations as MCP hints
//     and whole in _meta ("cetp/annotations"). A new revision, seen by the
//     periodic refresh or after a call, becomes
//     notifications/tools/list_changed.
//   - tools/call is one CETP execution under one request ID, which the
//     CETP client keeps across its retries and reconnects; the verified
//     result (inline, or a file result checked for size, sha256 and
//     output_schema) is structuredContent plus its JSON text, within
//     Options.MaxResultBytes. A CETP error is a tool error (isError) whose
//     _meta "cetp/error" carries code, retryable and retry_after_ms.
//   - USER_ACTION_REQUIRED is launched through the Provider, whose own UI
//     decides, and the call resumed with the resume token; the host is
//     told by progress notifications meanwhile. Nothing the host sends
//     besides the arguments (no _meta, no flag) reaches the Provider, so
//     nothing on the MCP side can stand in for that confirmation.
//     AUTH_REQUIRED is returned to the host with the Provider's message.
//   - An accepted call is followed with get_operation, its progress sent
//     as progress notifications; notifications/cancelled becomes
//     cancel_operation, and the answer says cancelled only once the
//     Provider reports the operation cancelled.
//
// This package is the only one of the module that imports the MCP SDK: the
// generator (gen/...) and the runtime (runtime/...) never do, which
// TestSDKStaysOutOfRuntime checks. docs/mcp.md has the host configuration
// and the full mapping table.
package mcpbridge
