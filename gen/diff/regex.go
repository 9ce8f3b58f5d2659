package diff

import (
	"fmt"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
)

// Patterns are compared as regular languages. JSON Schema's pattern is an
// ECMA-262 regular expression matched anywhere in the string (it is not
// anchored), and cetpgen checks schemas with jsonschema/v6, which runs it
// as Go's RE2. Inclusion is decided for the subset on which the two
// readings agree, with one exception handled exactly: "." excludes only
// \n in RE2 but also \r, U+2028 and U+2029 in ECMA-262, so a pattern with
// "." is compared under both readings and decided only when they agree.
// Everything else (\s, \b, \p{…}, inline flags, named groups, POSIX
// classes, \A, \z, \Q…\E, multi-line anchors) is outside the subset and
// stays unknown with the reason.

// maxNFAStates bounds the automaton of one pattern (counted repetitions
// expand), and maxPairs the product states explored.
const (
	maxNFAStates = 4000
	maxPairs     = 20000
)

// inclusion is the outcome of comparing two patterns: decided (with a
// witness string the narrow pattern matches and the wide one does not,
// when not included) or not, with the reason.
type inclusion struct {
	decided  bool
	included bool
	witness  string
	reason   string
}

// lengths bounds the strings of the narrow side (in code points, as JSON
// Schema counts them): at least min, at most max (max < 0: unbounded).
type lengths struct{ min, max int }

// maxTrackedLength is the longest length bound the search tracks; a
// longer maxLength is ignored (which only adds strings to the narrow
// side, so a finding may be reported that its bound would have excluded,
// never the other way round).
const maxTrackedLength = 256

// patternIncluded decides whether every string of the given lengths that
// narrow matches is matched by wide ("" meaning no pattern: every string).
func patternIncluded(narrow, wide string, n lengths) inclusion {
	for _, p := range []string{narrow, wide} {
		if why := outsideSubset(p); why != "" {
			return inclusion{reason: fmt.Sprintf("pattern %q %s", p, why)}
		}
	}
	var results []inclusion
	for _, ecma := range dotReadings(narrow, wide) {
		r := includedUnder(narrow, wide, ecma, n)
		if !r.decided {
			return r
		}
		results = append(results, r)
	}
	if len(results) == 2 && results[0].included != results[1].included {
		return inclusion{reason: `"." matches \r, U+2028 and U+2029 in RE2 but not in ECMA-262, and the answer depends on it`}
	}
	return results[0]
}

// dotReadings returns the readings of "." to compare under: both when a
// pattern uses it, else one.
func dotReadings(patterns ...string) []bool {
	for _, p := range patterns {
		if usesDot(p) {
			return []bool{false, true}
		}
	}
	return []bool{false}
}

// usesDot reports whether p has an unescaped "." outside a class.
func usesDot(p string) bool {
	inClass := false
	for i := 0; i < len(p); i++ {
		switch {
		case p[i] == '\\':
			i++
		case p[i] == '[':
			inClass = true
		case p[i] == ']':
			inClass = false
		case p[i] == '.' && !inClass:
			return true
		}
	}
	return false
}

// outsideSubset returns why p is outside the compared subset, or "".
func outsideSubset(p string) string {
	if _, err := syntax.Parse(p, syntax.Perl); err != nil {
		return "is not an RE2 expression: " + err.Error()
	}
	for i := 0; i < len(p); i++ {
		switch {
		case p[i] == '\\' && i+1 < len(p):
			if strings.IndexByte("sSbBpPAzQEC", p[i+1]) >= 0 || p[i+1] == 'x' && i+2 < len(p) && p[i+2] == '{' {
				return fmt.Sprintf("uses \\%c, which ECMA-262 and RE2 read differently", p[i+1])
			}
			i++
		case strings.HasPrefix(p[i:], "(?") && !strings.HasPrefix(p[i:], "(?:"):
			return "uses an inline flag or named group, which ECMA-262 does not have"
		case strings.HasPrefix(p[i:], "[:") || strings.HasPrefix(p[i:], "[[:"):
			return "uses a POSIX class, which ECMA-262 does not have"
		}
	}
	return ""
}

// includedUnder decides inclusion with "." read as ECMA-262 (ecma) or RE2
// reads it.
func includedUnder(narrow, wide string, ecma bool, n lengths) inclusion {
	nn, err := buildNFA(narrow, ecma)
	if err != "" {
		return inclusion{reason: fmt.Sprintf("pattern %q %s", narrow, err)}
	}
	nw, err := buildNFA(wide, ecma)
	if err != "" {
		return inclusion{reason: fmt.Sprintf("pattern %q %s", wide, err)}
	}
	return productSearch(nn, nw, n)
}

// assertion says when an empty edge may be taken.
type assertion uint8

// The empty edges: always, only at the start of the text, only at its end.
const (
	always assertion = iota
	atStart
	atEnd
)

// nfa is a Thompson automaton over runes. State 0 is the start; accept
// is the accepting state. The automaton recognizes the strings in which
// the pattern matches somewhere: the start and accept states loop on
// every rune.
type nfa struct {
	chars  [][]charEdge
	empty  [][]emptyEdge
	accept int
	// closures caches closure results by state set and position.
	closures map[string][]int
}

// charEdge moves on a rune in one of the ranges (pairs lo, hi).
type charEdge struct {
	ranges []rune
	to     int
}

// emptyEdge moves without a rune, under an assertion.
type emptyEdge struct {
	when assertion
	to   int
}

// anyRune is the class of every rune.
var anyRune = []rune{0, unicode.MaxRune}

// buildNFA compiles pattern p ("" matches everywhere) into an automaton
// of the unanchored search, or returns why it cannot.
func buildNFA(p string, ecma bool) (*nfa, string) {
	re, err := syntax.Parse(p, syntax.Perl)
	if err != nil {
		return nil, "is not an RE2 expression: " + err.Error()
	}
	b := &nfaBuilder{ecma: ecma, a: &nfa{}}
	start, acc := b.state(), b.state()
	b.char(start, anyRune, start)
	b.char(acc, anyRune, acc)
	s, e := b.compile(re.Simplify())
	if b.fail != "" {
		return nil, b.fail
	}
	b.eps(start, always, s)
	b.eps(e, always, acc)
	b.a.accept = acc
	return b.a, ""
}

// nfaBuilder builds an nfa; fail records why it cannot.
type nfaBuilder struct {
	ecma bool
	a    *nfa
	fail string
}

// state adds a state.
func (b *nfaBuilder) state() int {
	b.a.chars = append(b.a.chars, nil)
	b.a.empty = append(b.a.empty, nil)
	if len(b.a.chars) > maxNFAStates && b.fail == "" {
		b.fail = fmt.Sprintf("needs more than %d automaton states", maxNFAStates)
	}
	return len(b.a.chars) - 1
}

// char adds an edge on the ranges.
func (b *nfaBuilder) char(from int, ranges []rune, to int) {
	b.a.chars[from] = append(b.a.chars[from], charEdge{ranges, to})
}

// eps adds an empty edge.
func (b *nfaBuilder) eps(from int, when assertion, to int) {
	b.a.empty[from] = append(b.a.empty[from], emptyEdge{when, to})
}

// compile returns the start and end state of a fragment for re.
func (b *nfaBuilder) compile(re *syntax.Regexp) (int, int) {
	if b.fail != "" {
		return 0, 0
	}
	switch re.Op {
	case syntax.OpConcat, syntax.OpAlternate, syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpCapture:
		return b.compound(re)
	}
	s, e := b.state(), b.state()
	switch re.Op {
	case syntax.OpNoMatch:
	case syntax.OpEmptyMatch:
		b.eps(s, always, e)
	case syntax.OpLiteral:
		return b.literal(re)
	case syntax.OpCharClass:
		b.char(s, re.Rune, e)
	case syntax.OpAnyChar:
		b.char(s, anyRune, e)
	case syntax.OpAnyCharNotNL:
		b.char(s, b.dot(), e)
	case syntax.OpBeginText:
		b.eps(s, atStart, e)
	case syntax.OpEndText:
		b.eps(s, atEnd, e)
	default:
		b.fail = fmt.Sprintf("uses %s, which is outside the compared subset", opName(re.Op))
	}
	return s, e
}

// opName names a syntax operator for a message.
func opName(op syntax.Op) string {
	switch op {
	case syntax.OpBeginLine, syntax.OpEndLine:
		return "a multi-line anchor"
	case syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return "a word boundary"
	}
	return fmt.Sprintf("operator %d", op)
}

// dot returns the class "." matches.
func (b *nfaBuilder) dot() []rune {
	if b.ecma {
		return []rune{0, '\n' - 1, '\n' + 1, '\r' - 1, '\r' + 1, 0x2027, 0x202A, unicode.MaxRune}
	}
	return []rune{0, '\n' - 1, '\n' + 1, unicode.MaxRune}
}

// compound compiles the operators built from subexpressions.
func (b *nfaBuilder) compound(re *syntax.Regexp) (int, int) {
	switch re.Op {
	case syntax.OpConcat:
		s := b.state()
		e := s
		for _, sub := range re.Sub {
			ss, se := b.compile(sub)
			b.eps(e, always, ss)
			e = se
		}
		return s, e
	case syntax.OpAlternate:
		s, e := b.state(), b.state()
		for _, sub := range re.Sub {
			ss, se := b.compile(sub)
			b.eps(s, always, ss)
			b.eps(se, always, e)
		}
		return s, e
	case syntax.OpCapture:
		return b.compile(re.Sub[0])
	}
	s, e := b.state(), b.state()
	ss, se := b.compile(re.Sub[0])
	b.eps(s, always, ss)
	b.eps(se, always, e)
	if re.Op != syntax.OpPlus {
		b.eps(s, always, e)
	}
	if re.Op != syntax.OpQuest {
		b.eps(se, always, ss)
	}
	return s, e
}

// literal compiles a literal string, each rune with its case variants
// when the expression folds case.
func (b *nfaBuilder) literal(re *syntax.Regexp) (int, int) {
	s := b.state()
	e := s
	for _, r := range re.Rune {
		next := b.state()
		class := []rune{r, r}
		if re.Flags&syntax.FoldCase != 0 {
			for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
				class = append(class, f, f)
			}
		}
		b.char(e, class, next)
		e = next
	}
	return s, e
}

// closure returns the states reachable from set by empty edges allowed at
// a position that is the start and/or the end of the text.
func (a *nfa) closure(set []int, start, end bool) []int {
	key := setKey(set, start, end)
	if c, ok := a.closures[key]; ok {
		return c
	}
	if a.closures == nil {
		a.closures = map[string][]int{}
	}
	c := a.computeClosure(set, start, end)
	a.closures[key] = c
	return c
}

// setKey encodes a sorted state set and the position flags.
func setKey(set []int, start, end bool) string {
	b := make([]byte, 0, 4*len(set)+2)
	for _, s := range set {
		b = append(b, byte(s>>16), byte(s>>8), byte(s), ',')
	}
	if start {
		b = append(b, 'S')
	}
	if end {
		b = append(b, 'E')
	}
	return string(b)
}

// computeClosure computes closure without the cache.
func (a *nfa) computeClosure(set []int, start, end bool) []int {
	seen := map[int]bool{}
	stack := slices.Clone(set)
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[s] {
			continue
		}
		seen[s] = true
		for _, e := range a.empty[s] {
			if e.when == always || e.when == atStart && start || e.when == atEnd && end {
				stack = append(stack, e.to)
			}
		}
	}
	out := make([]int, 0, len(seen))
	for s := range seen {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// accepts reports whether the text may end with the automaton in set.
func (a *nfa) accepts(set []int, start bool) bool {
	return slices.Contains(a.closure(set, start, true), a.accept)
}

// step returns the states reached from set (closed) on rune r.
func (a *nfa) step(closed []int, r rune) []int {
	var out []int
	seen := make(map[int]bool, len(closed))
	for _, s := range closed {
		for _, e := range a.chars[s] {
			if !seen[e.to] && inRanges(e.ranges, r) {
				seen[e.to] = true
				out = append(out, e.to)
			}
		}
	}
	slices.Sort(out)
	return out
}

// inRanges reports whether r is in one of the ranges (pairs lo, hi).
func inRanges(ranges []rune, r rune) bool {
	for i := 0; i+1 < len(ranges); i += 2 {
		if ranges[i] <= r && r <= ranges[i+1] {
			return true
		}
	}
	return false
}

// alphabet returns one representative rune of each class of runes that
// no edge of the automata tells apart.
func alphabet(as ...*nfa) []rune {
	cuts := map[rune]bool{0: true}
	for _, a := range as {
		for _, edges := range a.chars {
			for _, e := range edges {
				for i := 0; i+1 < len(e.ranges); i += 2 {
					cuts[e.ranges[i]] = true
					if e.ranges[i+1] < unicode.MaxRune {
						cuts[e.ranges[i+1]+1] = true
					}
				}
			}
		}
	}
	out := make([]rune, 0, len(cuts))
	for r := range cuts {
		out = append(out, r)
	}
	slices.Sort(out)
	return out
}

// pair is one state of the product of the two determinized automata,
// with the length read so far (saturated at the bound that matters).
type pair struct {
	n, w   []int
	start  bool
	length int
	parent int
	via    rune
}

// productSearch looks for a string within the lengths that the narrow
// automaton accepts and the wide one rejects, breadth first over the
// product of their subset constructions.
func productSearch(narrow, wide *nfa, n lengths) inclusion {
	if n.max > maxTrackedLength {
		n.max = -1
	}
	sat := max(n.min, n.max+1)
	sigma := alphabet(narrow, wide)
	queue := []pair{{n: []int{0}, w: []int{0}, start: true, parent: -1}}
	seen := map[string]bool{}
	for i := 0; i < len(queue); i++ {
		p := queue[i]
		if p.length >= n.min && narrow.accepts(p.n, p.start) && !wide.accepts(p.w, p.start) {
			return inclusion{decided: true, witness: witness(queue, i)}
		}
		if n.max >= 0 && p.length >= n.max {
			continue
		}
		cn, cw := narrow.closure(p.n, p.start, false), wide.closure(p.w, p.start, false)
		for j, r := range sigma {
			next := pair{n: narrow.step(cn, r), w: wide.step(cw, r), length: min(p.length+1, sat), parent: i, via: nice(sigma, j)}
			if len(next.n) == 0 {
				continue
			}
			key := setKey(next.n, false, false) + "|" + setKey(next.w, false, false) + "|" + itoa(next.length)
			if seen[key] {
				continue
			}
			seen[key] = true
			if len(queue) >= maxPairs {
				return inclusion{reason: fmt.Sprintf("the patterns' automata have more than %d joint states", maxPairs)}
			}
			queue = append(queue, next)
		}
	}
	return inclusion{decided: true, included: true}
}

// nice returns a readable rune of the class starting at sigma[j]: a
// letter, digit or other printable ASCII character when the class has
// one, else its first rune.
func nice(sigma []rune, j int) rune {
	lo, hi := sigma[j], rune(unicode.MaxRune)
	if j+1 < len(sigma) {
		hi = sigma[j+1] - 1
	}
	for _, r := range "a0A_-.x/ " {
		if lo <= r && r <= hi {
			return r
		}
	}
	if r := max(lo, '!'); r <= min(hi, '~') {
		return r
	}
	return lo
}

// witness spells the string that leads to queue[i].
func witness(queue []pair, i int) string {
	var rs []rune
	for ; queue[i].parent >= 0; i = queue[i].parent {
		rs = append(rs, queue[i].via)
	}
	slices.Reverse(rs)
	return string(rs)
}
