package ir

import "github.com/cetpgen/cetpgen/gen/spec"

// Canonical encodes a decoded JSON value deterministically: object keys
// sorted by their UTF-8 bytes, no insignificant white space, numbers as the
// exact literal written in the spec, strings with only the escapes JSON
// requires. It is spec.Canonical, the encoding package validate already
// computed for each tool schema.
func Canonical(v any) ([]byte, error) { return spec.Canonical(v) }
