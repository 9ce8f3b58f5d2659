// Package oapi compares the speed of `cetpgen generate --target go` with
// oapi-codegen v2 (models and a strict server) on the same 1,000
// operations. It is a module of its own so that oapi-codegen never becomes
// a dependency of cetpgen. cmd/openapi converts a Provider spec into the
// equivalent OpenAPI 3.0 document; run.sh runs both generators and prints
// the ratio.
package oapi
