package ir

import (
	"iter"
	"slices"
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
	b.Grow(len(s) + 1)
	for w := range eachWord(s) {
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
	return slices.Collect(eachWord(s))
}

// eachWord yields the words of s in order, as words returns them,
// without a slice: the runs of letters and digits.
func eachWord(s string) iter.Seq[string] {
	return func(yield func(string) bool) {
		start := -1 // the current word's start, or -1 between words
		for i, r := range s {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				if start < 0 {
					start = i
				}
				continue
			}
			if start >= 0 && !yield(s[start:i]) {
				return
			}
			start = -1
		}
		if start >= 0 {
			yield(s[start:])
		}
	}
}

// unexport lowers the first rune of an exported ASCII-led name.
func unexport(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToLower(r)) + s[n:]
}

// namespace hands out unique identifiers in the order asked: a taken name
// gets the smallest numeric suffix from 2 that is free, so the result
// depends only on the order of requests, which the emitter keeps sorted.
//
// A namespace made by over sees the names of another as taken without
// writing to it, and records its takes, so that several can hand out
// names at once and their takes be replayed in the shared one after.
type namespace struct {
	used map[string]bool
	// base holds names taken before this namespace's own; it is only
	// read.
	base *namespace
	// takes are the takes of a namespace with a base, in order.
	takes []taken
}

// taken is one take: the name asked for and the name handed out.
type taken struct{ want, got string }

// newNamespace returns a namespace with the reserved names taken.
func newNamespace(reserved ...string) *namespace {
	ns := &namespace{used: map[string]bool{}}
	for _, r := range reserved {
		ns.used[r] = true
	}
	return ns
}

// over returns an empty namespace that sees the names of ns as taken.
// ns must not change while the new one is in use.
func (ns *namespace) over() *namespace {
	return &namespace{used: map[string]bool{}, base: ns}
}

// has reports whether name is taken, here or in the base.
func (ns *namespace) has(name string) bool {
	return ns.used[name] || ns.base != nil && ns.base.used[name]
}

// take reserves and returns want or its first free suffixed form.
func (ns *namespace) take(want string) string {
	name := want
	for i := 2; ns.has(name); i++ {
		name = want + strconv.Itoa(i)
	}
	ns.used[name] = true
	if ns.base != nil {
		ns.takes = append(ns.takes, taken{want, name})
	}
	return name
}

// replay repeats takes in ns, in order, and returns the names it took;
// ok reports whether each came out as recorded, which it does unless a
// name was taken here that the recording namespace did not see.
func (ns *namespace) replay(takes []taken) (names []string, ok bool) {
	names = make([]string, 0, len(takes))
	for _, t := range takes {
		got := ns.take(t.want)
		names = append(names, got)
		if got != t.got {
			return names, false
		}
	}
	return names, true
}

// release frees names taken by replay, undoing it.
func (ns *namespace) release(names []string) {
	for _, n := range names {
		delete(ns.used, n)
	}
}
