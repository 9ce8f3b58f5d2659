package spec

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/cetpgen/cetpgen/gen/source"
)

// invalidUTF8 returns the position of the first byte of data that is not
// valid UTF-8, and false when data is valid.
func invalidUTF8(path string, data []byte) (source.Pos, bool) {
	if utf8.Valid(data) {
		return source.Pos{}, false
	}
	line, col := 1, 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return source.Pos{File: path, Line: line, Col: col}, true
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		i += size
	}
	return source.Pos{File: path, Line: line, Col: col}, true
}

// refineSyntaxPos corrects the line of a yaml.v3 syntax error where the
// parser names the line of the token before the mistake: a tab in an
// indentation is reported where it is, and a key indented to no enclosing
// level ("did not find expected key" and its kin) at the first such line.
func refineSyntaxPos(pos source.Pos, msg string, data []byte) source.Pos {
	lines := bytes.Split(data, []byte("\n"))
	switch {
	case strings.Contains(msg, "tab character"):
		if line, col, ok := firstIndentTab(lines, pos.Line); ok {
			return source.Pos{File: pos.File, Line: line, Col: col}
		}
	case strings.Contains(msg, "did not find expected key"),
		strings.Contains(msg, "mapping values are not allowed"),
		strings.Contains(msg, "did not find expected '-' indicator"):
		if line, col, ok := firstStrayIndent(lines, pos.Line); ok {
			return source.Pos{File: pos.File, Line: line, Col: col}
		}
	}
	return pos
}

// firstIndentTab finds the first tab in the leading whitespace of a line,
// from line from (1-based) on.
func firstIndentTab(lines [][]byte, from int) (line, col int, ok bool) {
	for i := max(from-1, 0); i < len(lines); i++ {
		for j, b := range lines[i] {
			if b == '\t' {
				return i + 1, j + 1, true
			}
			if b != ' ' {
				break
			}
		}
	}
	return 0, 0, false
}

// firstStrayIndent follows the block indentation of the file (the offside
// rule YAML's block style uses) and returns the first line after from
// whose indentation closes a block without returning to an enclosing one,
// such as a key indented one space less than its siblings.
func firstStrayIndent(lines [][]byte, from int) (line, col int, ok bool) {
	stack := []int{0}
	for i, raw := range lines {
		indent, blank := indentation(raw)
		if blank {
			continue
		}
		for len(stack) > 1 && indent < stack[len(stack)-1] {
			stack = stack[:len(stack)-1]
		}
		if top := stack[len(stack)-1]; indent > top {
			if i+1 > from && len(stack) > 0 && wasClosed(lines, i, indent, top) {
				return i + 1, indent + 1, true
			}
			stack = append(stack, indent)
		}
	}
	return 0, 0, false
}

// wasClosed reports whether the line at index i, indented deeper than the
// open block top, comes right after a line indented deeper than itself: it
// then sits between two levels and belongs to neither.
func wasClosed(lines [][]byte, i, indent, top int) bool {
	for j := i - 1; j >= 0; j-- {
		prev, blank := indentation(lines[j])
		if blank {
			continue
		}
		return prev > indent && top < indent
	}
	return false
}

// indentation returns the number of leading spaces of a line, and whether
// the line holds nothing but whitespace or a comment.
func indentation(line []byte) (int, bool) {
	n := 0
	for n < len(line) && line[n] == ' ' {
		n++
	}
	rest := bytes.TrimSpace(line[n:])
	return n, len(rest) == 0 || rest[0] == '#'
}
