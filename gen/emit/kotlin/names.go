package kotlin

import (
	"strconv"
	"strings"
	"unicode"
)

// hardKeywords are Kotlin's hard keywords: never identifiers unless quoted
// in backticks.
var hardKeywords = map[string]bool{
	"as": true, "break": true, "class": true, "continue": true, "do": true,
	"else": true, "false": true, "for": true, "fun": true, "if": true,
	"in": true, "interface": true, "is": true, "null": true, "object": true,
	"package": true, "return": true, "super": true, "this": true,
	"throw": true, "true": true, "try": true, "typealias": true,
	"typeof": true, "val": true, "var": true, "when": true, "while": true,
}

// words splits a name into runs of letters and digits; everything else
// separates words. Letters outside ASCII are kept (Kotlin identifiers are
// Unicode), other characters are dropped.
func words(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return !(r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r))) &&
			!(r >= unicode.MaxASCII && unicode.In(r, unicode.L, unicode.Nd))
	})
}

// upperFirst returns w with its first rune upper-cased.
func upperFirst(w string) string {
	for i, r := range w {
		return string(unicode.ToUpper(r)) + w[i+len(string(r)):]
	}
	return w
}

// lowerFirst returns w with its first rune lower-cased.
func lowerFirst(w string) string {
	for i, r := range w {
		return string(unicode.ToLower(r)) + w[i+len(string(r)):]
	}
	return w
}

// pascal converts a wire name to PascalCase, or returns fallback when the
// name has no letters or digits. A leading digit gets fallback's initial.
func pascal(s, fallback string) string {
	var b strings.Builder
	for _, w := range words(s) {
		b.WriteString(upperFirst(w))
	}
	return leadingLetter(b.String(), fallback)
}

// camel converts a wire name to camelCase, or returns fallback.
func camel(s, fallback string) string {
	ws := words(s)
	var b strings.Builder
	for i, w := range ws {
		if i == 0 {
			b.WriteString(lowerFirst(w))
			continue
		}
		b.WriteString(upperFirst(w))
	}
	return leadingLetter(b.String(), fallback)
}

// leadingLetter makes id start with a letter: empty ids become fallback,
// ids that start with a digit get fallback's first letter in front.
func leadingLetter(id, fallback string) string {
	if id == "" {
		return fallback
	}
	if r := []rune(id)[0]; unicode.IsDigit(r) {
		return fallback[:1] + id
	}
	return id
}

// upperSnake converts an enum wire value to an UPPER_SNAKE constant name.
func upperSnake(s string) string {
	ws := words(s)
	for i, w := range ws {
		ws[i] = strings.ToUpper(w)
	}
	return leadingLetter(strings.Join(ws, "_"), "V_")
}

// allocator hands out unique names in one Kotlin scope. Names are compared
// case-sensitively; a taken name gets the smallest free numeric suffix.
type allocator struct {
	taken map[string]bool
}

// newAllocator returns an allocator with the reserved names already taken.
func newAllocator(reserved ...string) *allocator {
	a := &allocator{taken: map[string]bool{}}
	for _, r := range reserved {
		a.taken[r] = true
	}
	return a
}

// name returns base, or base with a suffix, whichever is still free, and
// takes it.
func (a *allocator) name(base string) string {
	n := base
	for i := 2; a.taken[n]; i++ {
		n = base + strconv.Itoa(i)
	}
	a.taken[n] = true
	return n
}

// quoted returns id in backticks when it is a Kotlin hard keyword.
func quoted(id string) string {
	if hardKeywords[id] {
		return "`" + id + "`"
	}
	return id
}
