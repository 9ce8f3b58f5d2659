package kotlin

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf16"
)

// kotlinString returns s as a Kotlin string literal, quotes included. It
// escapes the quote, the backslash, the dollar sign (string templates) and
// every character that is not printable, so no spec text can end the
// literal or be evaluated.
func kotlinString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		b.WriteString(escapeRune(r))
	}
	b.WriteByte('"')
	return b.String()
}

// shortEscapes are the escapes Kotlin string literals have a letter for,
// plus the quote, the backslash and the dollar sign of string templates.
var shortEscapes = map[rune]string{
	'"': `\"`, '\\': `\\`, '$': `\$`, '\n': `\n`, '\r': `\r`, '\t': `\t`, '\b': `\b`,
}

// escapeRune returns the Kotlin string-literal form of one rune.
func escapeRune(r rune) string {
	if e, ok := shortEscapes[r]; ok {
		return e
	}
	if r == ' ' || (unicode.IsPrint(r) && r != '\uFEFF') {
		return string(r)
	}
	return unicodeEscape(r)
}

// unicodeEscape writes r as \uXXXX escapes (a surrogate pair above the BMP).
func unicodeEscape(r rune) string {
	if r > 0xFFFF {
		hi, lo := utf16.EncodeRune(r)
		return fmt.Sprintf(`\u%04X\u%04X`, hi, lo)
	}
	return fmt.Sprintf(`\u%04X`, r)
}

// kdoc returns text as the body lines of a KDoc comment, each prefixed with
// indent and " * ". Sequences that would close or open a comment ("*/",
// "/*") are broken with an HTML entity, and control characters are shown
// as \uXXXX, so a hostile description stays inside the comment.
func kdoc(indent, text string) string {
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	var lines []string
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		line = strings.TrimRight(safeCommentText(line), " \t")
		if line == "" {
			lines = append(lines, indent+" *")
			continue
		}
		lines = append(lines, indent+" * "+line)
	}
	return strings.Join(lines, "\n")
}

// safeCommentText neutralises comment delimiters and control characters in
// one line of comment text.
func safeCommentText(s string) string {
	s = strings.ReplaceAll(s, "*/", "*&#47;")
	s = strings.ReplaceAll(s, "/*", "/&#42;")
	var b strings.Builder
	for _, r := range s {
		if r == '\t' || r == ' ' || (unicode.IsPrint(r) && r != '\uFEFF') {
			b.WriteRune(r)
			continue
		}
		b.WriteString(unicodeEscape(r))
	}
	return b.String()
}

// lineComment returns s made safe for one // comment line.
func lineComment(s string) string {
	return safeCommentText(strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s))
}

// StringLiteral returns s as a Kotlin string literal; tests use it to embed
// JSON in generated harness code.
func StringLiteral(s string) string { return kotlinString(s) }
