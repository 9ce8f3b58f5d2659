package golang

import (
	"bytes"
	"go/token"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// layUnit lays out src, the declarations of one unit as jennifer renders
// them unformatted (every line flush left, a token's spacing jennifer's),
// in the bytes gofmt prints for them. It knows the shapes the emitter
// writes: doc comments, struct, interface and defined types, const and
// var groups whose every spec has a type and a value, functions whose
// statements are assignments, calls, returns, if, for, switch and
// composite literals, with gofmt's alignment of struct fields, const
// specs and keyed elements. On what it does not follow, such as an
// arithmetic operator, a trailing comment, a label, parentheses gofmt
// would drop, a key of several tokens or of more than 40 bytes, or a
// comment gofmt would rewrite, it reports false and the unit goes
// through go/format. It is an optimization only: TestChunksJoinAsWhole,
// TestLayUnitMatchesGofmt and FuzzLayUnit compare it with go/format.
func layUnit(src []byte) ([]byte, bool) {
	l := layouts.Get().(*layout)
	defer layouts.Put(l)
	toks, ok := l.lex.scanLines(src)
	if !ok {
		return nil, false
	}
	l.reset(toks)
	l.out.Grow(len(src) + len(src)/8)
	if !l.run() {
		return nil, false
	}
	return l.out.Bytes(), true
}

// role is what an open bracket holds.
type role int

const (
	roleBlock      role = iota // statements
	roleSwitch                 // the statements of a switch, case lines outdented
	roleFields                 // struct fields
	roleMethods                // interface methods
	roleElements               // composite literal elements
	roleSpecs                  // the specs of a const or var group
	roleParams                 // a signature's parameters or results
	roleRecv                   // a method's receiver
	roleTypeParams             // a function's type parameters
	roleCall                   // call arguments, a conversion or a grouping
	roleIndex                  // an index, a slice or type arguments
	roleType                   // the brackets of a slice or map type
)

// open is an open bracket.
type open struct {
	role role
	// results marks the parentheses of a signature's results.
	results bool
	line    int // the source line it opened on
	commas  int // the commas directly inside
	// counted marks a bracket that ends its line: the lines up to its
	// closing are indented one more.
	counted bool
}

// sigState follows a function signature, whose results and body brace
// gofmt sets off by a blank.
type sigState int

const (
	sigNone   sigState = iota
	sigParams          // the parameters just closed: results or a body may follow
	sigResult          // inside a result type, or after the results' parentheses
)

// layout is the state of laying out one unit. Its slices are kept
// between units (layouts); out, the result, is not.
type layout struct {
	lex   lexer
	lines []srcLine
	out   bytes.Buffer
	stack []open
	// text holds the printed cells not yet written: those of the aligned
	// lines pending and of the line being printed. A cell is a slice of
	// it; cells are the pending cells in order, rows the end in cells of
	// each pending aligned line, and widths a cell's padded width.
	text   []byte
	cells  [][]byte
	rows   []int
	widths []int
	// sectionRole is the bracket role of the pending aligned lines, and
	// sectionAt their indentation.
	sectionRole role
	sectionAt   int
	// lastDecl is the keyword of the last top-level declaration.
	lastDecl token.Token
	sig      sigState
	sigDepth int
	// phase follows a function's header up to its parameters; unary
	// marks the last token printed as a unary operator.
	phase funcPhase
	unary bool
	// pending marks the token being printed as a unary operator, and
	// closed is the role of the bracket closed last.
	pending bool
	closed  role
	// closedCounted marks a line whose leading closing brackets closed
	// one that ended its line; valuePart, a line past its = or :=.
	closedCounted bool
	valuePart     bool
}

// layouts holds the layouts not in use.
var layouts = sync.Pool{New: func() any { return new(layout) }}

// reset readies l for a unit of the given lines, keeping its slices'
// arrays.
func (l *layout) reset(lines []srcLine) {
	*l = layout{
		lex: l.lex, lines: lines,
		stack: l.stack[:0], text: l.text[:0], cells: l.cells[:0], rows: l.rows[:0], widths: l.widths[:0],
	}
}

// run lays out every line; false means the unit is not of a known
// shape.
func (l *layout) run() bool {
	for i := 0; i < len(l.lines); i++ {
		ln := l.lines[i]
		if ln.toks[0].tok == token.COMMENT {
			j, ok := l.comment(i)
			if !ok {
				return false
			}
			i = j
			continue
		}
		if !l.code(ln, false) {
			return false
		}
	}
	l.flush()
	return len(l.stack) == 0
}

// comment lays out the comment group starting at line i, which must be
// followed by a line of code, and that line; it returns the index of the
// last line it used.
func (l *layout) comment(i int) (int, bool) {
	j := i
	var group []string
	for ; j < len(l.lines) && l.lines[j].toks[0].tok == token.COMMENT; j++ {
		if len(l.lines[j].toks) != 1 || j > i && l.lines[j].blank {
			return 0, false
		}
		group = append(group, l.lines[j].toks[0].lit)
	}
	if j == len(l.lines) || l.lines[j].blank || l.lines[i].blank && len(l.stack) > 0 {
		return 0, false
	}
	doc, ok := plainDoc(group)
	if !ok {
		return 0, false
	}
	if len(l.stack) == 0 {
		l.declBreak(l.lines[j].toks[0].tok, true)
	} else {
		l.flush()
	}
	next := l.lines[j].toks
	if next[0].tok == token.CASE || next[0].tok == token.DEFAULT {
		return 0, false
	}
	// A comment before a closing brace is indented as the lines inside.
	indent := l.indentOf(next)
	if isCloser(next[0].tok) {
		switch l.top() {
		case roleFields, roleMethods, roleBlock, roleSwitch, roleElements:
			indent = l.indentOf(nil)
		default:
			return 0, false
		}
	}
	for _, d := range doc {
		l.writeLine(indent, d)
	}
	return j, l.code(l.lines[j], true)
}

// declBreak writes the line break gofmt puts before a top-level
// declaration starting with kw: a blank line after a declaration of
// another keyword, before one with a doc comment, or where the source
// has one (blank).
func (l *layout) declBreak(kw token.Token, blank bool) {
	if l.lastDecl != token.ILLEGAL && (kw != l.lastDecl || blank) {
		l.out.WriteByte('\n')
	}
	l.lastDecl = kw
}

// indentOf is the indentation of a line starting with toks: the counted
// brackets open before it, less those its leading closing brackets
// close, and less one for a case clause of a switch.
func (l *layout) indentOf(toks []lexeme) int {
	n := 0
	for _, o := range l.stack {
		if o.counted {
			n++
		}
	}
	depth := len(l.stack)
	for _, t := range toks {
		if !isCloser(t.tok) || depth == 0 {
			break
		}
		depth--
		if l.stack[depth].counted {
			n--
		}
	}
	if len(toks) > 0 && (toks[0].tok == token.CASE || toks[0].tok == token.DEFAULT) && depth > 0 && l.stack[depth-1].role == roleSwitch {
		n--
	}
	return n
}

func isCloser(t token.Token) bool {
	return t == token.RPAREN || t == token.RBRACK || t == token.RBRACE
}

// code lays out one line of code; doc reports a doc comment above it.
func (l *layout) code(ln srcLine, doc bool) bool {
	toks := ln.toks
	if ln.blank && len(l.stack) > 0 {
		return false // gofmt keeps a blank line in a block; the emitter writes none
	}
	if len(l.stack) == 0 {
		switch toks[0].tok {
		case token.TYPE, token.FUNC, token.CONST, token.VAR:
			if !doc {
				l.declBreak(toks[0].tok, ln.blank)
			}
		default:
			return false
		}
	}
	indent := l.indentOf(toks)
	parent := roleBlock
	if len(l.stack) > 0 {
		parent = l.stack[len(l.stack)-1].role
	}
	n, ok := l.lineCells(toks, parent)
	if !ok {
		return false
	}
	if n > 1 {
		if len(l.rows) > 0 && (l.sectionRole != parent || l.sectionAt != indent) {
			l.flush()
		}
		l.rows = append(l.rows, len(l.cells))
		l.sectionRole, l.sectionAt = parent, indent
		return true
	}
	l.flush()
	l.indent(indent)
	l.out.Write(l.cells[0])
	l.out.WriteByte('\n')
	l.cells, l.text = l.cells[:0], l.text[:0]
	return true
}

// lineCells prints the tokens of a line into l.text and cuts them into
// the cells gofmt aligns, appended to l.cells: name, type and tag of a
// struct field; name, type and value of a const or var spec; key and
// value of a keyed element on one line. It returns how many; a line of
// one cell is not aligned.
func (l *layout) lineCells(toks []lexeme, parent role) (int, bool) {
	field, spec, keyed, ok := lineShape(toks, parent, len(l.stack) > 0)
	if !ok {
		return 0, false
	}
	lineStart := token.ILLEGAL
	for _, t := range toks {
		if !isCloser(t.tok) {
			lineStart = t.tok
			break
		}
	}
	depth := len(l.stack)
	from, cell := len(l.cells), len(l.text) // the line's first cell, the current cell's start
	l.sig, l.phase, l.unary, l.valuePart = sigNone, phaseNone, false, false
	for k := range toks {
		if !l.print(toks, k, cell, lineStart, parent, depth) {
			return 0, false
		}
		atDepth := len(l.stack) == depth
		if field && (k == 0 || k == len(toks)-2 && toks[k+1].tok == token.STRING && atDepth) ||
			spec && (k == 0 || k+1 < len(toks) && toks[k+1].tok == token.ASSIGN && atDepth) ||
			keyed && k == 1 {
			l.cells = append(l.cells, l.text[cell:])
			cell = len(l.text)
		}
	}
	if !lineEndKnown(toks, lineStart, parent) || len(l.stack) > 0 && !l.stack[len(l.stack)-1].counted {
		return 0, false // a line continued, or broken inside a bracket opened mid-line
	}
	l.cells = append(l.cells, l.text[cell:])
	// An aligned line is one whole field, spec or element; a line that
	// opens a bracket it does not close is a multi-line element.
	if len(l.stack) != depth && (field || spec || keyed) {
		if field || spec || len(l.stack) < depth {
			return 0, false
		}
		joined := bytes.Join(l.cells[from:], []byte(" "))
		l.cells = append(l.cells[:from], joined)
	}
	return len(l.cells) - from, true
}

// print appends toks[k] to l.text after the blank gofmt puts before it
// in a cell that starts at cell, and follows its brackets; false means a
// token or shape the layout does not know.
func (l *layout) print(toks []lexeme, k, cell int, lineStart token.Token, parent role, depth int) bool {
	t := toks[k]
	var prev *lexeme
	if k > 0 {
		prev = &toks[k-1]
	}
	space, ok := l.spaceBefore(prev, t, toks, k, lineStart)
	switch {
	case !ok, t.tok == token.COMMENT: // a comment after code
		return false
	case t.tok == token.COMMA && k < len(toks)-1 && len(l.stack) == depth && (parent == roleElements || parent == roleCall):
		return false // two elements on one line of a list that has a line each
	case !l.push(t, toks, k, lineStart):
		return false
	}
	if space && len(l.text) > cell {
		l.text = append(l.text, ' ')
	}
	l.text = append(l.text, t.text()...)
	l.unary = l.pending
	l.valuePart = l.valuePart || t.tok == token.ASSIGN || t.tok == token.DEFINE
	return true
}

// lineShape reports which aligned line toks may be in a bracket of role
// parent (nested: inside any bracket): a struct field, a const or var
// spec, a keyed element; ok is false for a line the layout does not
// know: an embedded or multi-name field, a spec without a type, a key
// of several tokens or over 40 bytes, a label, a bare block.
func lineShape(toks []lexeme, parent role, nested bool) (field, spec, keyed, ok bool) {
	switch parent {
	case roleFields:
		if len(toks) == 1 && toks[0].tok == token.RBRACE {
			return false, false, false, true
		}
		// A[T] or A[0] alone is an embedded generic type, not a name and
		// an array type.
		embeddedGeneric := len(toks) > 2 && toks[1].tok == token.LBRACK && toks[2].tok != token.RBRACK &&
			(toks[2].tok != token.INT || len(toks) <= 4 || toks[4].tok == token.STRING)
		named := len(toks) >= 2 && toks[0].tok == token.IDENT && toks[1].tok != token.COMMA && toks[1].tok != token.PERIOD
		return true, false, false, named && !embeddedGeneric
	case roleSpecs:
		if toks[0].tok == token.RPAREN {
			return false, false, false, true
		}
		typed := len(toks) >= 4 && toks[0].tok == token.IDENT && toks[1].tok != token.ASSIGN && toks[1].tok != token.COMMA
		return false, true, false, typed
	case roleElements:
		keyed = len(toks) >= 3 && toks[1].tok == token.COLON && isKey(toks[0])
		long := keyed && len(toks[0].text()) > 40
		return false, false, keyed, !long && (keyed || colonAt(toks) < 0)
	case roleBlock, roleSwitch:
		label := parent == roleBlock && len(toks) >= 2 && toks[0].tok == token.IDENT && toks[1].tok == token.COLON
		bare := nested && toks[0].tok == token.LBRACE
		return false, false, false, !label && !bare
	}
	return false, false, false, true
}

// lineEndKnown reports whether a line ends where gofmt ends it too: not
// inside an expression (after a dot, an operator or a colon other than a
// case's), and a case line right after its colon.
func lineEndKnown(toks []lexeme, lineStart token.Token, parent role) bool {
	end := toks[len(toks)-1].tok
	caseLine := lineStart == token.CASE || lineStart == token.DEFAULT
	switch {
	case end == token.PERIOD, isOperator(end) && end != token.INC && end != token.DEC, end == token.COLON && !caseLine:
		return false
	case caseLine:
		return end == token.COLON && parent == roleSwitch
	}
	return true
}

// colonAt is the index of the first colon of toks outside brackets, or
// -1.
func colonAt(toks []lexeme) int {
	depth := 0
	for i, t := range toks {
		switch t.tok {
		case token.LPAREN, token.LBRACK, token.LBRACE:
			depth++
		case token.RPAREN, token.RBRACK, token.RBRACE:
			depth--
		case token.COLON:
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// isKey reports whether t may be the key of an aligned element.
func isKey(t lexeme) bool {
	return t.tok == token.IDENT || t.tok == token.STRING || t.tok == token.INT
}

// writeLine writes one line at indent.
func (l *layout) writeLine(indent int, s string) {
	l.indent(indent)
	l.out.WriteString(s)
	l.out.WriteByte('\n')
}

// indent writes the tabs of an indentation.
func (l *layout) indent(n int) {
	for range n {
		l.out.WriteByte('\t')
	}
}

// flush writes the pending aligned lines as gofmt's tabwriter pads
// them: every cell but a line's last is padded to one more than the
// widest cell, in runes, of its column block, the run of consecutive
// lines that have a cell after it in that column. The layout's cells are
// never empty and hold no tab, so no column is discarded or split.
func (l *layout) flush() {
	if len(l.rows) == 0 {
		return
	}
	// Every cell but a line's last gets its width below.
	l.widths = slices.Grow(l.widths[:0], l.rows[len(l.rows)-1])[:l.rows[len(l.rows)-1]]
	for col := 0; ; col++ {
		found := false
		for start := 0; start < len(l.rows); {
			end := start
			w := 0
			for end < len(l.rows) && len(l.row(end)) > col+1 {
				w = max(w, utf8.RuneCount(l.row(end)[col]))
				end++
			}
			for i := start; i < end; i++ {
				l.widths[l.rowStart(i)+col] = w + 1
			}
			found = found || end > start
			start = max(end, start+1)
		}
		if !found {
			break
		}
	}
	for i := range l.rows {
		l.indent(l.sectionAt)
		cells := l.row(i)
		for col, c := range cells {
			l.out.Write(c)
			if col < len(cells)-1 {
				for range l.widths[l.rowStart(i)+col] - utf8.RuneCount(c) {
					l.out.WriteByte(' ')
				}
			}
		}
		l.out.WriteByte('\n')
	}
	// The cells after the last row are those of the line being laid out.
	l.cells = append(l.cells[:0], l.cells[l.rows[len(l.rows)-1]:]...)
	l.rows = l.rows[:0]
	if len(l.cells) == 0 {
		l.text = l.text[:0]
	}
}

// rowStart is the index in l.cells of pending aligned line i's first
// cell.
func (l *layout) rowStart(i int) int {
	if i == 0 {
		return 0
	}
	return l.rows[i-1]
}

// row is the cells of pending aligned line i.
func (l *layout) row(i int) [][]byte {
	return l.cells[l.rowStart(i):l.rows[i]]
}

// plainDoc is a comment group as gofmt prints it, or false when gofmt
// would reformat it: every line must be "//" or "// " and text that
// starts with no blank, ends with none and holds no tab or doubled
// quote, and it has at most two paragraphs, none starting like a heading,
// list or link.
func plainDoc(group []string) ([]string, bool) {
	paragraphs := 1
	for i, c := range group {
		if c == "//" {
			if i == 0 || i == len(group)-1 || group[i-1] == "//" {
				return nil, false
			}
			paragraphs++
			continue
		}
		text, ok := strings.CutPrefix(c, "// ")
		if !ok || text == "" || strings.ContainsFunc(text, isControl) ||
			strings.Contains(text, "``") || strings.Contains(text, "''") { // quotes the comment printer rewrites
			return nil, false
		}
		if last, _ := utf8.DecodeLastRuneInString(text); unicode.IsSpace(last) || unicode.IsSpace(rune(text[0])) || text[0] == '#' || text[0] == '[' {
			return nil, false
		}
	}
	return group, paragraphs <= 2
}

// isControl reports a control character, which gofmt may drop or which
// would split a tabwriter cell.
func isControl(r rune) bool {
	return r < 0x20 || r == 0x7f || r == utf8.RuneError
}
