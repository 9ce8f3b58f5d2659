package kotlin

import (
	"fmt"
	"regexp/syntax"
	"strings"
	"unicode"
)

// javaRegex translates a JSON Schema "pattern" as the Go runtime reads it
// (Go's RE2 syntax, unanchored search) into a java.util.regex pattern with
// the same matches under Matcher.find(): it parses the pattern with Go's
// own parser and writes each node back in constructs that mean the same in
// Java and on Android (ICU) alike, so no flag, escape or class shorthand
// is left to the Java engine's reading: literals and classes become code
// point ranges, case folding is expanded, "." excludes only "\n", "^" and
// "$" are text or line anchors as Go decided, and \b is Go's ASCII word
// boundary.
func javaRegex(pattern string) (string, error) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return "", fmt.Errorf("pattern %q: %w", pattern, err)
	}
	var b strings.Builder
	if err := writeRegex(&b, re); err != nil {
		return "", fmt.Errorf("pattern %q: %w", pattern, err)
	}
	return b.String(), nil
}

// asciiWord is Go's \w, the class its \b is defined by.
const asciiWord = `[0-9A-Za-z_]`

// regexAnchors are the Java spellings of Go's zero-width assertions.
var regexAnchors = map[syntax.Op]string{
	syntax.OpEmptyMatch:     `(?:)`,
	syntax.OpNoMatch:        `(?!)`,
	syntax.OpBeginText:      `\A`,
	syntax.OpEndText:        `\z`,
	syntax.OpBeginLine:      `(?<![^\x{A}])`,
	syntax.OpEndLine:        `(?![^\x{A}])`,
	syntax.OpAnyChar:        `[\x{0}-\x{10FFFF}]`,
	syntax.OpAnyCharNotNL:   `[^\x{A}]`,
	syntax.OpWordBoundary:   `(?:(?<=` + asciiWord + `)(?!` + asciiWord + `)|(?<!` + asciiWord + `)(?=` + asciiWord + `))`,
	syntax.OpNoWordBoundary: `(?:(?<=` + asciiWord + `)(?=` + asciiWord + `)|(?<!` + asciiWord + `)(?!` + asciiWord + `))`,
}

// writeRegex writes the Java form of one parsed node.
func writeRegex(b *strings.Builder, re *syntax.Regexp) error {
	if s, ok := regexAnchors[re.Op]; ok {
		b.WriteString(s)
		return nil
	}
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			writeRegexLiteral(b, r, re.Flags&syntax.FoldCase != 0)
		}
	case syntax.OpCharClass:
		writeClass(b, re.Rune)
	case syntax.OpCapture:
		return writeGroup(b, re.Sub[0], "")
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest:
		return writeGroup(b, re.Sub[0], map[syntax.Op]string{syntax.OpStar: "*", syntax.OpPlus: "+", syntax.OpQuest: "?"}[re.Op]+lazy(re))
	case syntax.OpRepeat:
		return writeGroup(b, re.Sub[0], repeatBounds(re.Min, re.Max)+lazy(re))
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			if err := writeRegex(b, sub); err != nil {
				return err
			}
		}
	case syntax.OpAlternate:
		b.WriteString("(?:")
		for i, sub := range re.Sub {
			if i > 0 {
				b.WriteByte('|')
			}
			if err := writeRegex(b, sub); err != nil {
				return err
			}
		}
		b.WriteByte(')')
	default:
		return fmt.Errorf("regular expression operator %v has no Java form", re.Op)
	}
	return nil
}

// writeGroup writes sub as a non-capturing group followed by suffix (a
// quantifier, or nothing).
func writeGroup(b *strings.Builder, sub *syntax.Regexp, suffix string) error {
	b.WriteString("(?:")
	if err := writeRegex(b, sub); err != nil {
		return err
	}
	b.WriteByte(')')
	b.WriteString(suffix)
	return nil
}

// lazy is the reluctant-quantifier suffix of a non-greedy repetition.
func lazy(re *syntax.Regexp) string {
	if re.Flags&syntax.NonGreedy != 0 {
		return "?"
	}
	return ""
}

// repeatBounds is the Java quantifier {min,max}; max -1 is unbounded.
func repeatBounds(lo, hi int) string {
	switch {
	case hi < 0:
		return fmt.Sprintf("{%d,}", lo)
	case lo == hi:
		return fmt.Sprintf("{%d}", lo)
	}
	return fmt.Sprintf("{%d,%d}", lo, hi)
}

// writeRegexLiteral writes one code point, or the class of its case-folding
// orbit when the literal folds case.
func writeRegexLiteral(b *strings.Builder, r rune, fold bool) {
	if !fold {
		writeRune(b, r)
		return
	}
	orbit := []rune{r}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		orbit = append(orbit, f)
	}
	if len(orbit) == 1 {
		writeRune(b, r)
		return
	}
	b.WriteByte('[')
	for _, o := range orbit {
		writeRune(b, o)
	}
	b.WriteByte(']')
}

// writeClass writes a class of code point ranges (lo, hi pairs); Go's
// parser has already folded case and applied negation, so the class is
// positive. An empty class matches nothing.
func writeClass(b *strings.Builder, ranges []rune) {
	if len(ranges) == 0 {
		b.WriteString(`(?!)`)
		return
	}
	b.WriteByte('[')
	for i := 0; i+1 < len(ranges); i += 2 {
		writeRune(b, ranges[i])
		if ranges[i+1] != ranges[i] {
			b.WriteByte('-')
			writeRune(b, ranges[i+1])
		}
	}
	b.WriteByte(']')
}

// writeRune writes a code point as a Java hexadecimal escape.
func writeRune(b *strings.Builder, r rune) {
	fmt.Fprintf(b, `\x{%X}`, r)
}
