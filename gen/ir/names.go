package ir

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// initialisms are words written in capitals in Go names (alert_id ->
// AlertID), as Go's own style does.
var initialisms = map[string]string{
	"id": "ID", "url": "URL", "uri": "URI", "http": "HTTP", "json": "JSON",
	"uuid": "UUID", "api": "API", "ip": "IP", "sql": "SQL", "utc": "UTC",
}

// exportName converts any string to an exported Go identifier: words are
// split at every rune that is neither a letter nor a digit and each is
// capitalized; a result that does not start with an upper-case letter
// (empty, a leading digit, a script without case) gets the prefix "X".
func exportName(s string) string {
	var b strings.Builder
	for _, w := range words(s) {
		if up, ok := initialisms[w]; ok {
			b.WriteString(up)
			continue
		}
		r, n := utf8.DecodeRuneInString(w)
		b.WriteRune(unicode.ToUpper(r))
		b.WriteString(w[n:])
	}
	name := b.String()
	if r, _ := utf8.DecodeRuneInString(name); !unicode.IsUpper(r) {
		name = "X" + name
	}
	return name
}

// words splits s at runes that cannot be part of a Go identifier.
func words(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// unexport lowers the first rune of an exported ASCII-led name.
func unexport(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToLower(r)) + s[n:]
}

// namespace hands out unique identifiers in the order asked: a taken name
// gets the smallest numeric suffix from 2 that is free, so the result
// depends only on the order of requests, which the emitter keeps sorted.
type namespace struct{ used map[string]bool }

// newNamespace returns a namespace with the reserved names taken.
func newNamespace(reserved ...string) *namespace {
	ns := &namespace{used: map[string]bool{}}
	for _, r := range reserved {
		ns.used[r] = true
	}
	return ns
}

// take reserves and returns want or its first free suffixed form.
func (ns *namespace) take(want string) string {
	name := want
	for i := 2; ns.used[name]; i++ {
		name = want + strconv.Itoa(i)
	}
	ns.used[name] = true
	return name
}
