package provider

import (
	"encoding/json"
	"fmt"

	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// The listing rule for sync_or_async tools (§3.4: "execution=sync_or_async
// 仅能在协商了 async_operations 时使用"). A session that negotiated
// async_operations sees such a tool as sync_or_async, and may get an
// accepted answer. Any other session sees it as sync: the engine runs it
// synchronously there (see async), so the listing describes what the
// session will get, and no session ever sees sync_or_async without the
// capability. Refusing the tool instead would make it unusable for
// Consumers that cannot poll, for no safety gain.

// listsSync reports whether a session lists sync_or_async tools as sync:
// every session without async_operations.
func listsSync(s *session) bool {
	return s == nil || !s.has(protocol.CapAsyncOperations)
}

// syncWire is the list_tools entry of a sync_or_async tool as a session
// without async_operations sees it: the same entry with execution sync.
func syncWire(t Tool) ([]byte, error) {
	sync := t
	sync.Annotations.Execution = ExecSync
	v2, _, err := toolWire(sync)
	if err != nil {
		return nil, fmt.Errorf("tool %s: %w", t.Name, err)
	}
	return v2, nil
}

// listedWire returns the entry of t as session s sees it.
func listedWire(t *tool, s *session) json.RawMessage {
	if listsSync(s) {
		return t.wireSync
	}
	return t.wire
}
