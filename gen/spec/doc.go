// Package spec is the LOAD stage: it reads a Provider spec directory
// (provider.yaml and tools/<name>.yaml), parses each file strictly with
// yaml.v3 and turns it into a Doc: the file's JSON value plus an index from
// JSON pointers to the YAML nodes they came from, so that every later
// diagnostic, including those of JSON Schema validators that speak only in
// pointers, can point at the exact line and column.
//
// Strictness is the point: duplicate keys, non-string keys, values that JSON
// cannot hold (timestamps, binary, infinities, merge keys, hex or octal
// numbers, custom tags), several documents in one file, alias bombs, deep
// nesting and oversized files are all rejected with positioned diagnostics.
//
// The wire structs (Provider, Tool) mirror the spec's YAML keys one to one.
// They are decoded from a Doc only after the meta-schemas accepted it, and
// they are not the IR: package ir resolves and sorts them.
package spec
