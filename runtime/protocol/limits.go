package protocol

// The protocol minimums of the negotiated limits (CETP v2 §2.2): a Provider
// may offer more, never less, and they are what a spec without a limits
// block gets.
const (
	MinRequestBytes          = 65536
	MinInlineResultBytes     = 262144
	MinConcurrentRequests    = 1
	MinIdempotencyWindowSecs = 86400
)
