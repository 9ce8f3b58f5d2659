package kotlin

import (
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// kotlinString returns s as a Kotlin string literal, quotes included. It
// escapes the quote, the backslash, the dollar sign (string templates) and
// every character that is not printable, so no spec text can end the
// literal or be evaluated.
func kotlinString(s string) string {
	if plainASCII(s) {
		return `"` + s + `"`
	}
	return string(appendKotlinString(make([]byte, 0, len(s)+8), s))
}

// plainASCII reports whether every byte of s is printable ASCII that a
// Kotlin string literal holds as it is: no quote, backslash or dollar sign.
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c > '~' || c == '"' || c == '\\' || c == '$' {
			return false
		}
	}
	return true
}

// appendKotlinString appends s as a Kotlin string literal to dst.
func appendKotlinString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	if plainASCII(s) {
		return append(append(dst, s...), '"')
	}
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			dst = appendEscapedRune(dst, rune(c))
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		dst = appendEscapedRune(dst, r)
		i += n
	}
	return append(dst, '"')
}

// shortEscape returns the escape Kotlin string literals have a letter for
// (plus the quote, the backslash and the dollar sign of string templates),
// or "" when r has none.
func shortEscape(r rune) string {
	switch r {
	case '"':
		return `\"`
	case '\\':
		return `\\`
	case '$':
		return `\$`
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	case '\b':
		return `\b`
	}
	return ""
}

// appendEscapedRune appends the Kotlin string-literal form of one rune.
func appendEscapedRune(dst []byte, r rune) []byte {
	if r > ' ' && r < 0x7f && r != '"' && r != '\\' && r != '$' {
		return append(dst, byte(r))
	}
	if e := shortEscape(r); e != "" {
		return append(dst, e...)
	}
	if r == ' ' || (unicode.IsPrint(r) && r != '\uFEFF') {
		return utf8.AppendRune(dst, r)
	}
	return appendUnicodeEscape(dst, r)
}

// appendUnicodeEscape appends r as \uXXXX escapes (a surrogate pair above
// the BMP).
func appendUnicodeEscape(dst []byte, r rune) []byte {
	if r > 0xFFFF {
		hi, lo := utf16.EncodeRune(r)
		return appendU4(appendU4(dst, hi), lo)
	}
	return appendU4(dst, r)
}

// appendU4 appends one \uXXXX escape of a UTF-16 code unit, upper-case hex.
func appendU4(dst []byte, r rune) []byte {
	const hex = "0123456789ABCDEF"
	return append(dst, '\\', 'u', hex[r>>12&0xF], hex[r>>8&0xF], hex[r>>4&0xF], hex[r&0xF])
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
	if plainComment(s) {
		return s
	}
	s = strings.ReplaceAll(s, "*/", "*&#47;")
	s = strings.ReplaceAll(s, "/*", "/&#42;")
	var b strings.Builder
	for _, r := range s {
		if r == '\t' || r == ' ' || (unicode.IsPrint(r) && r != '\uFEFF') {
			b.WriteRune(r)
			continue
		}
		b.Write(appendUnicodeEscape(nil, r))
	}
	return b.String()
}

// plainComment reports whether s is printable ASCII (tabs included) with
// no comment delimiter, so that safeCommentText keeps it as it is.
func plainComment(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < ' ' && c != '\t') || c > '~' || (c == '*' && i+1 < len(s) && s[i+1] == '/') || (c == '/' && i+1 < len(s) && s[i+1] == '*') {
			return false
		}
	}
	return true
}

// lineBreaks turns every line break into a space.
var lineBreaks = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ")

// lineComment returns s made safe for one // comment line.
func lineComment(s string) string {
	return safeCommentText(lineBreaks.Replace(s))
}

// StringLiteral returns s as a Kotlin string literal; tests use it to embed
// JSON in generated harness code.
func StringLiteral(s string) string { return kotlinString(s) }
