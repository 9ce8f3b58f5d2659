// Command alertsd is an example CETP v2 Provider: the price-alert Provider
// of specs/alerts, built from the generated package out/go/alerts and
// served with runtime/serve. It holds only its business logic (the alerts
// table and the four handlers); serving, flags, scopes, confirmations and
// logs come from the runtime's building blocks.
//
// Usage:
//
//	alertsd [--socket /tmp/alerts.sock] [--db alerts.db | --db postgres://…] [--socket-mode 0600]
//	        [--log-format text|json] [--grants FILE] [--auto-deny] [--work-delay 2s] [--poll-after 250ms]
//
// The alerts table lives in the same database as the runtime store (the
// SQLite file, or the PostgreSQL database of the shared store), so every
// write a tool makes (through call.Tx) commits in one transaction with its
// deduplication record: a retried request never creates a second alert.
// The socket is created with mode 0600 and only the UID that runs alertsd
// holds the alerts scopes (runtime/authz.Owner); a --grants file adds
// other UIDs.
//
// Confirmations are asked on this process's own terminal
// (runtime/confirm.Prompt). With --auto-deny, or when stdin is not a
// terminal, every confirmation is denied, the safe default. delete_alert
// (confirmation: always) always asks; the tools whose confirmation is
// provider_policy run without asking in this example (confirm.OnlyAlways).
//
// create_alert is sync_or_async: a Consumer that negotiated
// async_operations gets an operation at once and can follow its progress;
// --work-delay makes the handler take that long, reporting its progress in
// steps, so the operation can be watched and cancelled. On SQLite a
// handler runs inside the store's write transaction, so while create_alert
// works the other writes of alertsd wait (reads and cancel requests do
// not); --work-delay 0 turns the delay off.
//
// SIGINT or SIGTERM stops alertsd gracefully: the socket stops accepting,
// running calls finish, background operations are stopped (they stay in
// the store and resume at the next start) and the store is closed.
package main
