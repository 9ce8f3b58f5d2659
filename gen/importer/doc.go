// Package importer turns tool descriptions that already exist, an MCP
// server's tools/list result or an OpenAPI 3.0/3.1 document, into a
// cetpgen spec directory: provider.yaml with clearly marked placeholders
// and one tools/<name>.yaml per tool.
//
// The importer never decides silently. Every value it had to choose is
// written with a YAML comment that starts with one of three markers:
//
//	# PLACEHOLDER: a value a person must replace (identity, scopes)
//	# GUESS: a value inferred from hints or names, to be reviewed
//	# NOTE: a faithful conversion worth knowing (a renamed tool, a
//	#       draft-07 keyword rewritten in its 2020-12 form)
//
// and is also returned as a positioned diagnostic. Input that cannot be
// carried over faithfully (invalid JSON, two tools of one name, a schema
// that refers to a network resource) is an error at its line and column
// in the input, and nothing is imported.
//
// The package is one pipeline stage: it reads bytes and returns files in
// memory (emit.File) and diagnostics; gen/cli writes the files and
// validates them with the rest of the pipeline.
package importer
