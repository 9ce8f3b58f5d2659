package golang

import (
	"go/token"
	"slices"
	"sync"
	"unicode"
	"unicode/utf8"
)

// lexeme is one token of the source.
type lexeme struct {
	tok  token.Token
	lit  string
	line int
}

// text is the lexeme as gofmt prints it.
func (x lexeme) text() string {
	if x.lit != "" {
		return x.lit
	}
	return x.tok.String()
}

// srcLine is the tokens of one source line; blank reports an empty line
// before it.
type srcLine struct {
	toks  []lexeme
	blank bool
}

// lexer scans the source of one unit. Its slices are kept between units
// (lexers), so that a large file's thousands of units do not each grow
// their own.
type lexer struct {
	src    string
	pos    int
	line   int
	lex    []lexeme
	starts []int // the index in lex of each line's first token
	lines  []srcLine
}

// lexers holds the lexers not in use.
var lexers = sync.Pool{New: func() any { return new(lexer) }}

// scanLines scans src into its lines of tokens, as go/scanner would
// return them less the semicolons it inserts at line ends; the lines
// share one array of tokens, which belongs to lx until its next scan.
//
// It reads only the subset of Go that jennifer prints for the emitter:
// identifiers and keywords, decimal numbers, interpreted and raw
// strings and runes without tabs or line breaks, line comments, and
// operators. On anything else (a block comment, a hexadecimal number, a
// control character, a non-ASCII byte outside a literal, comment or
// identifier) ok
// is false and the unit goes through go/format; FuzzScanLines proves
// that what it accepts, it scans as go/scanner does.
func (lx *lexer) scanLines(src []byte) (lines []srcLine, ok bool) {
	lx.src, lx.pos, lx.line = string(src), 0, 1
	// jennifer's unformatted output has a token every 6 bytes or more, a
	// line every 40 or more.
	lx.lex = slices.Grow(lx.lex[:0], len(src)/6)
	lx.starts, lx.lines = slices.Grow(lx.starts[:0], len(src)/40), slices.Grow(lx.lines[:0], len(src)/40)
	last := 0
	for {
		if !lx.skipSpace() {
			return nil, false
		}
		if lx.pos == len(lx.src) {
			break
		}
		tok, lit, ok := lx.next()
		if !ok {
			return nil, false
		}
		if lx.line != last {
			lx.starts = append(lx.starts, len(lx.lex))
			lx.lines = append(lx.lines, srcLine{blank: last != 0 && lx.line > last+1})
			last = lx.line
		}
		lx.lex = append(lx.lex, lexeme{tok: tok, lit: lit, line: lx.line})
	}
	for i := range lx.lines {
		end := len(lx.lex)
		if i+1 < len(lx.starts) {
			end = lx.starts[i+1]
		}
		lx.lines[i].toks = lx.lex[lx.starts[i]:end:end]
	}
	return lx.lines, true
}

// skipSpace moves past blanks and line breaks, counting lines; it is
// false on a carriage return or another control character.
func (lx *lexer) skipSpace() bool {
	for lx.pos < len(lx.src) {
		switch lx.src[lx.pos] {
		case ' ', '\t':
		case '\n':
			lx.line++
		default:
			return lx.src[lx.pos] >= ' '
		}
		lx.pos++
	}
	return true
}

// next scans the token at lx.pos; lit is set for identifiers, numbers,
// strings, runes and comments, as go/scanner sets it.
func (lx *lexer) next() (tok token.Token, lit string, ok bool) {
	start := lx.pos
	c := lx.src[start]
	switch {
	case isLetter(c) || c >= utf8.RuneSelf && identLen(lx.src[start:], false) > 0:
		return lx.identifier()
	case isDigit(c):
		return lx.number()
	case c == '"':
		return lx.quoted('"', token.STRING)
	case c == '\'':
		return lx.quoted('\'', token.CHAR)
	case c == '`':
		return lx.raw()
	case c == '/' && lx.at(start+1) == '/':
		return lx.comment()
	}
	return lx.operator()
}

// identifier scans an identifier or a keyword.
func (lx *lexer) identifier() (token.Token, string, bool) {
	start := lx.pos
	i := start
	for {
		i = scanWhile(lx.src, i, isIdentByte)
		n := identLen(lx.src[i:], true)
		if n < 0 {
			return 0, "", false
		}
		if n == 0 {
			break
		}
		i += n
	}
	lx.pos = i
	lit := lx.src[start:i]
	if tok := keyword(lit); tok != token.IDENT {
		return tok, "", true
	}
	return token.IDENT, lit, true
}

// keyword is token.Lookup without its map: the keyword token of s, or
// IDENT.
func keyword(s string) token.Token {
	if len(s) < 2 || len(s) > 11 || s[0] < 'b' || s[0] > 'v' {
		return token.IDENT
	}
	switch s {
	case "break":
		return token.BREAK
	case "case":
		return token.CASE
	case "chan":
		return token.CHAN
	case "const":
		return token.CONST
	case "continue":
		return token.CONTINUE
	case "default":
		return token.DEFAULT
	case "defer":
		return token.DEFER
	case "else":
		return token.ELSE
	case "fallthrough":
		return token.FALLTHROUGH
	case "for":
		return token.FOR
	case "func":
		return token.FUNC
	case "go":
		return token.GO
	case "goto":
		return token.GOTO
	case "if":
		return token.IF
	case "import":
		return token.IMPORT
	case "interface":
		return token.INTERFACE
	case "map":
		return token.MAP
	case "package":
		return token.PACKAGE
	case "range":
		return token.RANGE
	case "return":
		return token.RETURN
	case "select":
		return token.SELECT
	case "struct":
		return token.STRUCT
	case "switch":
		return token.SWITCH
	case "type":
		return token.TYPE
	case "var":
		return token.VAR
	}
	return token.IDENT
}

// identLen is the length of the non-ASCII letter (or, if digits, letter
// or digit) at the start of s, 0 if there is none, and -1 at invalid
// UTF-8, which go/scanner reports.
func identLen(s string, digits bool) int {
	if s == "" || s[0] < utf8.RuneSelf {
		return 0
	}
	r, n := utf8.DecodeRuneInString(s)
	switch {
	case r == utf8.RuneError && n == 1:
		return -1
	case unicode.IsLetter(r) || digits && unicode.IsDigit(r):
		return n
	}
	return 0
}

// at is the byte at i, or 0 past the end.
func (lx *lexer) at(i int) byte {
	if i < len(lx.src) {
		return lx.src[i]
	}
	return 0
}

// number scans a decimal integer or floating-point literal: digits, an
// optional fraction and an optional exponent. A leading zero before a
// digit (octal), a base prefix, a digit separator, an imaginary suffix
// or a letter right after the number report false.
func (lx *lexer) number() (token.Token, string, bool) {
	start := lx.pos
	tok := token.INT
	i := scanWhile(lx.src, start, isDigit)
	if lx.src[start] == '0' && i > start+1 {
		return 0, "", false
	}
	if lx.at(i) == '.' {
		if !isDigit(lx.at(i + 1)) {
			return 0, "", false
		}
		tok, i = token.FLOAT, scanWhile(lx.src, i+1, isDigit)
	}
	if c := lx.at(i); c == 'e' || c == 'E' {
		i++
		if c := lx.at(i); c == '+' || c == '-' {
			i++
		}
		if !isDigit(lx.at(i)) {
			return 0, "", false
		}
		tok, i = token.FLOAT, scanWhile(lx.src, i, isDigit)
	}
	if c := lx.at(i); isIdentByte(c) || c == '.' {
		return 0, "", false
	}
	lx.pos = i
	return tok, lx.src[start:i], true
}

// quoted scans an interpreted string or a rune literal closed by q. Its
// text must be valid UTF-8 without control characters, its escapes
// those go/scanner accepts; a rune literal holds one character.
func (lx *lexer) quoted(q byte, tok token.Token) (token.Token, string, bool) {
	start := lx.pos
	i, chars := start+1, 0
	for {
		c := lx.at(i)
		switch {
		case c == q:
			if tok == token.CHAR && chars != 1 {
				return 0, "", false
			}
			lx.pos = i + 1
			return tok, lx.src[start:lx.pos], true
		case c == '\\':
			n := escapeLen(lx.src[i+1:], q)
			if n == 0 {
				return 0, "", false
			}
			i += 1 + n
		default:
			n := textLen(lx.src[i:])
			if n == 0 {
				return 0, "", false
			}
			i += n
		}
		chars++
	}
}

// raw scans a raw string, which must be valid UTF-8 without control
// characters (go/scanner would drop a carriage return from it).
func (lx *lexer) raw() (token.Token, string, bool) {
	start := lx.pos
	i := start + 1
	for lx.at(i) != '`' {
		n := textLen(lx.src[i:])
		if n == 0 {
			return 0, "", false
		}
		i += n
	}
	lx.pos = i + 1
	return token.STRING, lx.src[start:lx.pos], true
}

// comment scans a line comment up to its line break, which must be valid
// UTF-8 without control characters.
func (lx *lexer) comment() (token.Token, string, bool) {
	start := lx.pos
	i := start + 2
	for i < len(lx.src) && lx.src[i] != '\n' {
		n := textLen(lx.src[i:])
		if n == 0 {
			return 0, "", false
		}
		i += n
	}
	lx.pos = i
	return token.COMMENT, lx.src[start:i], true
}

// operator scans an operator or punctuation by longest match; a block
// comment, a fraction without its leading digit and a byte that is no
// operator report false.
func (lx *lexer) operator() (token.Token, string, bool) {
	c := lx.src[lx.pos]
	if c == '/' && lx.at(lx.pos+1) == '*' || c == '.' && isDigit(lx.at(lx.pos+1)) {
		return 0, "", false
	}
	tok, n := operatorAt(lx.src[lx.pos:])
	if n == 0 {
		return 0, "", false
	}
	lx.pos += n
	return tok, "", true
}

// operatorAt is the operator or punctuation at the start of s and its
// length, the longest that matches, or a length of 0.
func operatorAt(s string) (token.Token, int) {
	at := func(i int) byte {
		if i < len(s) {
			return s[i]
		}
		return 0
	}
	// An operator that may be followed by "=" (ADD: "+", "+=").
	assign := func(op, opAssign token.Token) (token.Token, int) {
		if at(1) == '=' {
			return opAssign, 2
		}
		return op, 1
	}
	// An operator that may be doubled ("+", "++") or followed by "=".
	doubled := func(twice, op, opAssign token.Token) (token.Token, int) {
		if at(1) == s[0] {
			return twice, 2
		}
		return assign(op, opAssign)
	}
	// A two-byte operator that "=" may extend ("<<", "<<=").
	twoAssign := func(two, three token.Token) (token.Token, int) {
		if at(2) == '=' {
			return three, 3
		}
		return two, 2
	}
	switch s[0] {
	case '(':
		return token.LPAREN, 1
	case ')':
		return token.RPAREN, 1
	case '[':
		return token.LBRACK, 1
	case ']':
		return token.RBRACK, 1
	case '{':
		return token.LBRACE, 1
	case '}':
		return token.RBRACE, 1
	case ',':
		return token.COMMA, 1
	case ';':
		return token.SEMICOLON, 1
	case '~':
		return token.TILDE, 1
	case '.':
		if at(1) == '.' && at(2) == '.' {
			return token.ELLIPSIS, 3
		}
		return token.PERIOD, 1
	case ':':
		return assign(token.COLON, token.DEFINE)
	case '=':
		return assign(token.ASSIGN, token.EQL)
	case '!':
		return assign(token.NOT, token.NEQ)
	case '*':
		return assign(token.MUL, token.MUL_ASSIGN)
	case '/':
		return assign(token.QUO, token.QUO_ASSIGN)
	case '%':
		return assign(token.REM, token.REM_ASSIGN)
	case '^':
		return assign(token.XOR, token.XOR_ASSIGN)
	case '+':
		return doubled(token.INC, token.ADD, token.ADD_ASSIGN)
	case '-':
		return doubled(token.DEC, token.SUB, token.SUB_ASSIGN)
	case '|':
		return doubled(token.LOR, token.OR, token.OR_ASSIGN)
	case '&':
		switch at(1) {
		case '&':
			return token.LAND, 2
		case '^':
			return twoAssign(token.AND_NOT, token.AND_NOT_ASSIGN)
		}
		return assign(token.AND, token.AND_ASSIGN)
	case '<':
		switch at(1) {
		case '-':
			return token.ARROW, 2
		case '<':
			return twoAssign(token.SHL, token.SHL_ASSIGN)
		}
		return assign(token.LSS, token.LEQ)
	case '>':
		if at(1) == '>' {
			return twoAssign(token.SHR, token.SHR_ASSIGN)
		}
		return assign(token.GTR, token.GEQ)
	}
	return 0, 0
}

// escapeLen is the length of the escape after a backslash at the start
// of s inside a literal quoted by q, or 0 if go/scanner would report it:
// an unknown letter, too few digits, a surrogate half, a code point past
// Unicode's last or an octal byte past 255.
func escapeLen(s string, q byte) int {
	if s == "" {
		return 0
	}
	switch c := s[0]; c {
	case 'a', 'b', 'f', 'n', 'r', 't', 'v', '\\':
		return 1
	case q:
		return 1
	case 'x':
		return 1 + codeLen(s[1:], 2, 16, 255)
	case 'u':
		return 1 + codeLen(s[1:], 4, 16, utf8.MaxRune)
	case 'U':
		return 1 + codeLen(s[1:], 8, 16, utf8.MaxRune)
	case '0', '1', '2', '3', '4', '5', '6', '7':
		return max(codeLen(s, 3, 8, 255), 0)
	}
	return 0
}

// codeLen is digits when s starts with that many digits of the base
// whose value is at most maxValue and not a surrogate half; otherwise it
// is -1, so that an escape's length 1+codeLen is 0.
func codeLen(s string, digits int, base, maxValue uint32) int {
	if len(s) < digits {
		return -1
	}
	var v uint32
	for i := range digits {
		d := digitValue(s[i])
		if d >= base {
			return -1
		}
		v = v*base + d
	}
	if v > maxValue || 0xD800 <= v && v < 0xE000 {
		return -1
	}
	return digits
}

// digitValue is the value of a hexadecimal digit, or 16.
func digitValue(c byte) uint32 {
	switch {
	case '0' <= c && c <= '9':
		return uint32(c - '0')
	case 'a' <= c && c <= 'f':
		return uint32(c - 'a' + 10)
	case 'A' <= c && c <= 'F':
		return uint32(c - 'A' + 10)
	}
	return 16
}

// textLen is the length of the character at the start of s inside a
// literal or comment, or 0 at the end, at a control character, at
// invalid UTF-8 and at a byte order mark, which go/scanner reports.
func textLen(s string) int {
	if s == "" {
		return 0
	}
	if c := s[0]; c < utf8.RuneSelf {
		if c < ' ' || c == 0x7f {
			return 0
		}
		return 1
	}
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError || r == 0xFEFF {
		return 0
	}
	return n
}

// scanWhile is the offset of the first byte at or after i in s that is
// not in the class.
func scanWhile(s string, i int, in func(byte) bool) int {
	for i < len(s) && in(s[i]) {
		i++
	}
	return i
}

func isLetter(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isIdentByte(c byte) bool { return isLetter(c) || isDigit(c) }
