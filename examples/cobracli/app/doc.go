// Package app is the command tree of notes, the example hand-written Cobra
// CLI: the binary and its catalog generator build the same tree from here.
package app
