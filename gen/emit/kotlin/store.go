package kotlin

import (
	"fmt"

	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// storeView is the view of store.kt.tmpl: the Provider's durable state on
// the app's SQLiteDatabase (deduplication records, resume tokens,
// operations, scope grants).
type storeView struct {
	common
	ProviderID string
	// WindowMillis is the idempotency window as a Kotlin Long literal.
	WindowMillis string
}

// storeView builds the view of the store file.
func (m *model) storeView() storeView {
	return storeView{common: m.common(), ProviderID: kotlinString(m.p.ID),
		WindowMillis: fmt.Sprintf("%dL", m.p.Limits.IdempotencyWindowSeconds*1000)}
}

// durableView holds what the base class wires to the store: whether any
// tool asks for confirmation (the resume-token flow), and whether the
// Provider declares async_operations and cancellation (get_operation and
// cancel_operation on the stored operations).
type durableView struct {
	Confirms     bool
	Async        bool
	Cancellation bool
}

// durableView builds the store wiring of the base class.
func (m *model) durableView() durableView {
	return durableView{
		Confirms:     m.hasConfirmation(protocol.ConfirmAlways) || m.hasConfirmation(protocol.ConfirmProviderPolicy),
		Async:        m.p.Has(protocol.CapAsyncOperations),
		Cancellation: m.p.Has(protocol.CapAsyncOperations) && m.p.Has(protocol.CapCancellation),
	}
}
