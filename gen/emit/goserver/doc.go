// Package goserver renders the Go server skeleton of a Provider: a main
// package under cmd/<slug>/ of the output root (or the directory under
// cmd/ that the spec's targets.go.server names) that serves the generated
// package go/<slug> with runtime/serve, with one handler method per tool
// for the user to fill in. Each method answers a clear not-implemented
// CETP error until then.
//
// The skeleton is the user's file (emit.File.UserOwned): it is written
// when absent and never overwritten, deleted or checked, as the Kotlin
// skeleton is. Its import of the generated package is the module path of
// the nearest go.mod above the output root joined with the output root's
// place in that module; without one, a placeholder path the user sets
// once.
package goserver
