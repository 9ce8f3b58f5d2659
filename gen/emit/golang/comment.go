package golang

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"
)

// wrapAt is the width at which comment text is wrapped.
const wrapAt = 100

// commentLines turns spec text into lines that are safe inside "//"
// comments: one per line of the text, with every control character, byte
// order mark and Unicode line or paragraph separator replaced by a space
// (Go ends a line comment only at a newline, and rejects NUL and BOMs
// anywhere), and blank lines kept as empty comment lines.
func commentLines(text string) []string {
	text = strings.ToValidUTF8(text, "\uFFFD")
	text = strings.ReplaceAll(text, "\r\n", "\n")
	var out []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(strings.Map(safeRune, line), " ")
		out = append(out, wrap(line)...)
	}
	return out
}

// wrap breaks a line at spaces so that lines stay near wrapAt runes; a
// word longer than that (text without spaces) is cut every wrapAt runes.
// The line being built is always a run of line itself (words keep the
// single spaces between them), so it is kept as offsets and a rune count
// rather than built by concatenation.
func wrap(line string) []string {
	var out []string
	var cur run
	for i := 0; i <= len(line); {
		j := strings.IndexByte(line[i:], ' ')
		if j < 0 {
			j = len(line) - i
		}
		w := run{start: i, end: i + j, runes: utf8.RuneCountInString(line[i : i+j])}
		for w.runes > wrapAt {
			cut := w.start + byteIndex(line[w.start:w.end], wrapAt)
			out, cur = cur.flush(out, line), run{}
			out = append(out, line[w.start:cut])
			w = run{start: cut, end: w.end, runes: w.runes - wrapAt}
		}
		if !cur.empty() && cur.runes+1+w.runes > wrapAt {
			out, cur = cur.flush(out, line), run{}
		}
		cur = cur.join(w)
		i += j + 1
	}
	return cur.flush(out, line)
}

// run is a stretch of the line being wrapped: its byte offsets and its
// length in runes.
type run struct{ start, end, runes int }

func (r run) empty() bool { return r.start == r.end }

// join appends the word w, which follows r after one space in the line;
// an empty run takes w as it is.
func (r run) join(w run) run {
	if r.empty() {
		return w
	}
	return run{start: r.start, end: w.end, runes: r.runes + 1 + w.runes}
}

// flush appends the run as a line, unless it is empty and lines exist.
func (r run) flush(out []string, line string) []string {
	if r.empty() && len(out) > 0 {
		return out
	}
	return append(out, line[r.start:r.end])
}

// byteIndex is the byte offset of rune n of s.
func byteIndex(s string, n int) int {
	i := 0
	for j := range s {
		if i == n {
			return j
		}
		i++
	}
	return len(s)
}

// safeRune maps the runes that could break or invalidate Go source to a
// space.
func safeRune(r rune) rune {
	if unicode.IsControl(r) || r == '\uFEFF' || r == '\u2028' || r == '\u2029' {
		return ' '
	}
	return r
}

// truncate cuts s to at most n bytes on a rune boundary.
func truncate(s string, n int) string {
	for n > 0 && n < len(s) && !utf8Start(s[n]) {
		n--
	}
	return s[:n]
}

// utf8Start reports whether b starts a UTF-8 sequence.
func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// docLines is a doc comment: paragraphs of text, blank-line separated.
type docLines []string

// para appends text as a paragraph when it is not empty.
func (d *docLines) para(text string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	if len(*d) > 0 {
		*d = append(*d, "")
	}
	*d = append(*d, commentLines(text)...)
}

// code renders the doc comment as "//" lines, given to jennifer as one
// comment with its "//"s so that jennifer writes it as is: the same
// bytes as a comment per line, in one statement.
//
//	// First line.
//	//
//	// Second paragraph.
func (d docLines) code() []jen.Code {
	if len(d) == 0 {
		return nil
	}
	var b strings.Builder
	size := 0
	for _, l := range d {
		size += len(l) + 4
	}
	b.Grow(size)
	for i, l := range d {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("//")
		if l != "" {
			b.WriteByte(' ')
			b.WriteString(l)
		}
	}
	return []jen.Code{jen.Comment(b.String())}
}
