// Package protocol holds the wire vocabulary of CETP v2: the typed Bundle
// that carries every request and response, the method and key names, the
// error table of §5 with each code's retryable flag, and the success,
// accepted and error envelopes of §4.2, §4.4 and §5.
//
// The package has no behaviour beyond building, checking and encoding these
// values; the Provider engine lives in package provider.
package protocol
