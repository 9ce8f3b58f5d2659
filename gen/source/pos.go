// Package source describes where things are in spec files: positions that
// every later stage carries so that a diagnostic can point at the exact node.
package source

import "fmt"

// Pos is a position in a spec file. Line and Col are 1-based; Col counts
// characters, not bytes. The zero Pos means "no position".
type Pos struct {
	File string
	Line int
	Col  int
}

// String formats p as path:line:col, the form editors and CI understand.
func (p Pos) String() string {
	if p.Line == 0 {
		return p.File
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// IsValid reports whether p names a file.
func (p Pos) IsValid() bool { return p.File != "" }

// Less orders positions by file, then line, then column.
func (p Pos) Less(q Pos) bool {
	if p.File != q.File {
		return p.File < q.File
	}
	if p.Line != q.Line {
		return p.Line < q.Line
	}
	return p.Col < q.Col
}

// FileStart is the first position of file, used where a problem belongs to a
// whole file rather than to one node.
func FileStart(file string) Pos { return Pos{File: file, Line: 1, Col: 1} }
