// Package golang is the Go emitter: for one Provider it renders a Go
// package with the tools' input and output types (JSON Schema mapped to Go
// by the table in docs/go-mapping.md), a Handler interface with one typed
// method per tool, the constructor that registers the tools with the
// runtime Provider engine, and a typed Client over the runtime Consumer.
//
// Code is built with jennifer only. The emitter reads only the IR and
// returns files in memory; output is byte-identical for identical input.
// Every spec string reaches the output either as a Go string literal or
// through commentLines, so no title, description or property name can end
// a comment or a string.
package golang
