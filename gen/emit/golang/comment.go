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
func wrap(line string) []string {
	var out []string
	cur := ""
	for _, w := range strings.Split(line, " ") {
		for utf8.RuneCountInString(w) > wrapAt {
			cut := byteIndex(w, wrapAt)
			out, cur = flush(out, cur), ""
			out, w = append(out, w[:cut]), w[cut:]
		}
		if cur != "" && utf8.RuneCountInString(cur)+1+utf8.RuneCountInString(w) > wrapAt {
			out, cur = flush(out, cur), ""
		}
		cur = joinWord(cur, w)
	}
	return flush(out, cur)
}

// flush appends the line being built, unless it is empty and lines exist.
func flush(out []string, cur string) []string {
	if cur == "" && len(out) > 0 {
		return out
	}
	return append(out, cur)
}

// joinWord appends a word to a line with one space.
func joinWord(cur, w string) string {
	if cur == "" {
		return w
	}
	return cur + " " + w
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

// code renders the doc comment as "//" lines; each is given to jennifer
// with its "//" so that jennifer writes it as is.
//
//	// First line.
//	//
//	// Second paragraph.
func (d docLines) code() []jen.Code {
	out := make([]jen.Code, 0, len(d))
	for _, l := range d {
		if l == "" {
			out = append(out, jen.Comment("//"))
			continue
		}
		out = append(out, jen.Comment("// "+l))
	}
	return out
}
