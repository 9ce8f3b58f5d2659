// Package quickstart holds the test that runs the README's quickstart
// exactly as printed: its shell blocks line by line, its files and its
// method replacement, in a new module that depends on this repository
// through a module proxy built from the working tree, so that the
// README's go get and go tool commands run offline. The dependencies come
// from the module cache's download directory (which the repository's own
// build fills), and each distinct working tree is extracted once into the
// module cache as its own pseudo-version (a few MB). The test needs git
// (to list the working tree's files) and bash.
package quickstart
