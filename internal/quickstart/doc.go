// Package quickstart holds the test that runs the README's quickstart
// exactly as printed: its shell blocks line by line, its files and its
// method replacement, in a new module that depends on this repository
// through a module proxy built from the working tree, so that the
// README's go get and go tool commands run offline.
package quickstart
