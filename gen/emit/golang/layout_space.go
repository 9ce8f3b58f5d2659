package golang

import "go/token"

// funcPhase is where a function header is, up to its parameters.
type funcPhase int

const (
	phaseNone    funcPhase = iota
	phaseDecl              // after the func of a declaration: a receiver or the name follows
	phaseRecv              // inside the receiver, whose names are not the function's
	phaseName              // after the receiver: the name follows
	phaseNamed             // after the name: type parameters or parameters follow
	phaseLiteral           // after the func of a literal or type: parameters follow
)

// spaceBefore reports whether gofmt puts a blank between prev and t on
// one line; ok is false for a token the layout does not know, such as an
// arithmetic operator, a channel or a trailing comma.
func (l *layout) spaceBefore(prev *lexeme, t lexeme, toks []lexeme, k int, lineStart token.Token) (space, ok bool) {
	if !knownToken(t.tok) || (t.tok == token.INT || t.tok == token.FLOAT || t.tok == token.IMAG) && !plainNumber(t.lit) {
		return false, false
	}
	p := token.ILLEGAL
	if prev != nil {
		p = prev.tok
	}
	afterSig := p == token.RPAREN && l.sig == sigParams
	l.pending = isOperator(t.tok) && unaryAt(t.tok, p, l.typeContext(lineStart), l.closed == roleType, afterSig)
	if isOperator(t.tok) && !l.pending && !spacedBinary(t.tok) {
		return false, false
	}
	last := k == len(toks)-1
	if t.tok == token.SEMICOLON && (prev == nil || !controlLine(lineStart) || last || p.IsKeyword()) {
		return false, false // gofmt drops a semicolon outside a statement's header
	}
	if prev == nil {
		return false, true
	}
	if t.tok == token.PERIOD && (p == token.INT || p == token.FLOAT || p == token.IMAG) {
		return false, false // gofmt keeps a number apart from a selector
	}
	switch t.tok {
	case token.COMMA, token.SEMICOLON, token.PERIOD, token.RPAREN, token.RBRACK, token.COLON, token.INC, token.DEC:
		if p == token.COMMA && t.tok != token.COMMA {
			return false, false // a trailing comma on one line, which gofmt drops
		}
		return false, true
	case token.RBRACE:
		return false, p != token.COMMA
	case token.ELLIPSIS:
		return l.top() == roleParams && p != token.LPAREN, true
	}
	if p == token.LPAREN || p == token.LBRACK || p == token.LBRACE || p == token.PERIOD || p == token.ELLIPSIS || l.unary {
		return false, true
	}
	if p == token.COLON {
		return l.top() != roleIndex, true
	}
	if p == token.COMMA || p == token.SEMICOLON || spacedBinary(p) {
		return true, true
	}
	switch t.tok {
	case token.LPAREN, token.LBRACK, token.LBRACE:
		return l.spaceBeforeOpen(p, t.tok, toks, k, lineStart)
	}
	if isOperator(t.tok) {
		if l.pending {
			return p.IsKeyword() || afterSig || p == token.IDENT, true
		}
		return true, true
	}
	// t is a word: an identifier, a literal or a keyword.
	switch p {
	case token.RBRACK:
		return l.closed == roleTypeParams, true
	case token.RPAREN:
		return true, true
	case token.RBRACE:
		return t.tok == token.ELSE, true
	}
	return true, true
}

// spaceBeforeOpen is spaceBefore for an opening bracket after p: a
// blank before a receiver, results, a type after a name, or a block.
func (l *layout) spaceBeforeOpen(p, open token.Token, toks []lexeme, k int, lineStart token.Token) (space, ok bool) {
	last := k == len(toks)-1
	switch open {
	case token.LPAREN:
		switch {
		case p == token.FUNC:
			return l.phase == phaseDecl, true
		case p == token.RPAREN:
			return l.sig == sigParams, true
		case p == token.IDENT && l.typeContext(lineStart):
			return false, false // a parenthesized type
		}
		return p.IsKeyword(), true
	case token.LBRACK:
		switch {
		case p == token.RPAREN:
			return l.sig == sigParams, true
		case p == token.MAP:
			return false, true
		case p == token.IDENT && !last && l.typeContext(lineStart):
			return isName(toks, k-1) && !typeParamsAt(toks, k, lineStart), true
		}
		return p.IsKeyword(), true
	case token.LBRACE:
		switch {
		case p == token.STRUCT || p == token.INTERFACE:
			return last, true
		case l.isBlock(lineStart, last):
			return true, true
		}
		return p.IsKeyword(), true
	}
	return false, true
}

// top is the role of the innermost open bracket.
func (l *layout) top() role {
	if len(l.stack) == 0 {
		return roleBlock
	}
	return l.stack[len(l.stack)-1].role
}

// isBlock reports whether a brace opens a block: after a signature, or
// ending the line of an if, for, switch or else.
func (l *layout) isBlock(lineStart token.Token, last bool) bool {
	if l.sig != sigNone && len(l.stack) == l.sigDepth {
		return true
	}
	return last && controlLine(lineStart)
}

// typeContext reports whether a line holds types where an operator
// before an identifier is a pointer: parameters, a receiver, fields,
// type parameters, specs and declarations of var and type, results.
func (l *layout) typeContext(lineStart token.Token) bool {
	switch l.top() {
	case roleParams, roleRecv, roleTypeParams, roleFields:
		return true
	case roleSpecs:
		return !l.valuePart
	}
	return (lineStart == token.VAR || lineStart == token.TYPE) && !l.valuePart || l.sig != sigNone
}

// knownToken reports whether the layout knows how gofmt spaces t.
func knownToken(t token.Token) bool {
	switch t {
	case token.ARROW, token.CHAN, token.GOTO, token.TILDE, token.ILLEGAL, token.FALLTHROUGH, token.SELECT:
		return false
	}
	return true
}

// isOperator reports whether t is an operator (not a bracket or a
// separator).
func isOperator(t token.Token) bool {
	return t.IsOperator() && !isBracket(t) && t != token.COMMA && t != token.SEMICOLON && t != token.PERIOD && t != token.COLON && t != token.ELLIPSIS
}

func isBracket(t token.Token) bool {
	switch t {
	case token.LPAREN, token.RPAREN, token.LBRACK, token.RBRACK, token.LBRACE, token.RBRACE:
		return true
	}
	return false
}

// spacedBinary reports whether gofmt sets off the binary operator t by
// blanks wherever it stands: assignments, comparisons, && and ||. The
// spacing of the others depends on the expression's depth and mix of
// precedences, which the layout does not follow.
func spacedBinary(t token.Token) bool {
	switch t {
	case token.ASSIGN, token.DEFINE, token.EQL, token.NEQ, token.LSS, token.GTR, token.LEQ, token.GEQ, token.LAND, token.LOR:
		return true
	}
	return false
}

// unaryAt reports whether the operator t after p is unary: at the start
// of an operand, or a pointer in a type after a name, a type's closing
// bracket or a signature's parameters.
func unaryAt(t, p token.Token, types, closedType, afterSig bool) bool {
	switch t {
	case token.NOT:
		return true
	case token.MUL, token.AND, token.SUB, token.ADD, token.XOR:
	default:
		return false
	}
	switch p {
	case token.IDENT:
		return t == token.MUL && types
	case token.RBRACK:
		return t == token.MUL && closedType
	case token.RPAREN:
		return t == token.MUL && afterSig
	case token.RBRACE, token.INT, token.FLOAT, token.IMAG, token.CHAR, token.STRING:
		return false
	}
	return true
}

// plainNumber reports whether a number literal is in the form gofmt
// leaves as it is: decimal digits, a point and a lower-case exponent.
func plainNumber(lit string) bool {
	if len(lit) > 1 && lit[0] == '0' && lit[1] != '.' {
		return false // a prefix or an octal literal, which gofmt may rewrite
	}
	for _, c := range lit {
		if !('0' <= c && c <= '9' || c == '.' || c == 'e' || c == '-' || c == '+') {
			return false
		}
	}
	return true
}

// isName reports whether the identifier at toks[i] of a line of types is
// a name being declared, which a blank sets off from its type, rather
// than a type, which its type arguments follow unspaced: the first of
// the line, or after a parenthesis, a comma or var.
func isName(toks []lexeme, i int) bool {
	if i == 0 {
		return true
	}
	switch toks[i-1].tok {
	case token.LPAREN, token.COMMA, token.VAR, token.TYPE:
		return true
	}
	return false
}

// typeParamsAt reports whether the bracket at toks[k] opens the type
// parameters of a type declaration: a name and its constraint.
func typeParamsAt(toks []lexeme, k int, lineStart token.Token) bool {
	return lineStart == token.TYPE && k == 2 && k+2 < len(toks) && toks[k+1].tok == token.IDENT && toks[k+2].tok == token.IDENT
}
