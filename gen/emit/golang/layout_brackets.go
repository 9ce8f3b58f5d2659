package golang

import "go/token"

// push follows the brackets and the function headers of the line at
// token k; false means a shape the layout does not know: a bracket
// closed by another kind, a block or field list with code after its
// brace on the same line, a type group.
func (l *layout) push(t lexeme, toks []lexeme, k int, lineStart token.Token) bool {
	last := k == len(toks)-1
	next := token.ILLEGAL
	if !last {
		next = toks[k+1].tok
	}
	prev := token.ILLEGAL
	if k > 0 {
		prev = toks[k-1].tok
	}
	l.followSig(t.tok)
	switch t.tok {
	case token.COMMA:
		if len(l.stack) > 0 {
			l.stack[len(l.stack)-1].commas++
		}
		return true
	case token.FUNC:
		l.phase = phaseLiteral
		if k == 0 && len(l.stack) == 0 {
			l.phase = phaseDecl
		}
		return true
	case token.IDENT:
		if l.phase == phaseDecl || l.phase == phaseName {
			l.phase = phaseNamed
		}
		return true
	case token.LPAREN:
		if grouping(prev) && (next == token.LPAREN || stripsParens(prev, lineStart)) {
			return false // parentheses gofmt removes
		}
		return l.pushParen(prev, lineStart, last, t.line)
	case token.LBRACK:
		r := roleIndex
		switch {
		case prev == token.MAP || next == token.RBRACK || next == token.INT:
			r = roleType
		case l.phase == phaseNamed && prev == token.IDENT:
			r = roleTypeParams
		case typeParamsAt(toks, k, lineStart):
			r = roleTypeParams
		case lineStart == token.TYPE && k == 2 && !(next == token.RBRACK || k+2 < len(toks) && toks[k+2].tok == token.RBRACK):
			return false // type parameters with a constraint of more than a name
		}
		l.stack = append(l.stack, open{role: r, counted: last, line: t.line})
		return true
	case token.LBRACE:
		if next == token.RBRACE && k+2 == len(toks) && controlLine(lineStart) {
			return false // an empty block of a statement, which gofmt breaks
		}
		return l.pushBrace(prev, next, lineStart, last, t.line)
	case token.RPAREN, token.RBRACK, token.RBRACE:
		if len(l.stack) > 0 && l.stack[len(l.stack)-1].counted {
			o := l.stack[len(l.stack)-1]
			if !onlyClosers(toks[:k]) || k > 0 && l.closedCounted || t.line == o.line+1 {
				// it closes after code, after another that ended its
				// line, or with nothing inside: gofmt joins the lines
				return false
			}
		}
		if k == 0 {
			l.closedCounted = false
		}
		if len(l.stack) > 0 && l.stack[len(l.stack)-1].counted {
			l.closedCounted = true
		}
		return l.pop(t.tok)
	}
	return true
}

// pushParen opens a parenthesis: a receiver, parameters or results, a
// const or var group, or a call.
func (l *layout) pushParen(prev, lineStart token.Token, last bool, line int) bool {
	o := open{role: roleCall, counted: last, line: line}
	switch {
	case prev == token.FUNC && l.phase == phaseDecl:
		o.role = roleRecv
		l.phase = phaseRecv
	case prev == token.FUNC && l.phase == phaseLiteral, l.phase == phaseNamed && (prev == token.IDENT || prev == token.RBRACK):
		o.role = roleParams
		l.phase = phaseNone
	case prev == token.IDENT && l.top() == roleMethods && len(l.stack) > 0 && lineStart == token.IDENT:
		o.role = roleParams
	case prev == token.RPAREN && l.sig == sigParams:
		o.role, o.results = roleParams, true
		l.sig = sigNone
	case prev == token.CONST || prev == token.VAR:
		o.role = roleSpecs
		if !last {
			return false // a group on one line, which gofmt breaks
		}
	case prev == token.TYPE || prev == token.IMPORT:
		return false
	default:
		switch l.top() {
		case roleParams, roleRecv, roleTypeParams, roleFields:
			return false // a parenthesized type
		}
	}
	l.stack = append(l.stack, o)
	return true
}

// pushBrace opens a brace: a struct's fields, an interface's methods, a
// block or a composite literal's elements.
func (l *layout) pushBrace(prev, next, lineStart token.Token, last bool, line int) bool {
	o := open{role: roleElements, counted: last, line: line}
	switch {
	case prev == token.STRUCT:
		o.role = roleFields
	case prev == token.INTERFACE:
		o.role = roleMethods
	case l.isBlock(lineStart, last):
		o.role = roleBlock
		if lineStart == token.SWITCH {
			o.role = roleSwitch
		}
	}
	body := l.sig != sigNone
	l.sig = sigNone
	if o.role != roleElements && !last && next != token.RBRACE {
		return false
	}
	if (o.role == roleBlock || o.role == roleSwitch) && next == token.RBRACE && !body {
		return false // gofmt breaks an empty block other than a function body
	}
	l.stack = append(l.stack, o)
	return true
}

// pop closes the innermost bracket, which must be of the kind of t.
func (l *layout) pop(t token.Token) bool {
	if len(l.stack) == 0 {
		return false
	}
	o := l.stack[len(l.stack)-1]
	l.stack = l.stack[:len(l.stack)-1]
	want := token.RBRACE
	switch o.role {
	case roleParams, roleRecv, roleCall, roleSpecs:
		want = token.RPAREN
	case roleIndex, roleType, roleTypeParams:
		want = token.RBRACK
	}
	if t != want || o.results && o.commas == 0 {
		return false // or one result in parentheses, which gofmt may drop
	}
	l.closed = o.role
	switch o.role {
	case roleRecv:
		l.phase = phaseName
	case roleParams:
		l.sig, l.sigDepth = sigParams, len(l.stack)
		if o.results {
			l.sig = sigResult
		}
	}
	return true
}

// followSig moves the signature state past token t: after the
// parameters a result type may follow; a comma, an assignment or a
// closing bracket at the signature's depth ends it.
func (l *layout) followSig(t token.Token) {
	if l.sig == sigNone || len(l.stack) != l.sigDepth {
		return
	}
	switch t {
	case token.IDENT, token.MUL, token.LBRACK, token.MAP, token.FUNC, token.STRUCT, token.INTERFACE:
		if l.sig == sigParams {
			l.sig = sigResult
		}
	case token.LPAREN, token.LBRACE, token.PERIOD, token.RBRACK:
	default:
		l.sig = sigNone
	}
}

// onlyClosers reports whether toks are all closing brackets.
func onlyClosers(toks []lexeme) bool {
	for _, t := range toks {
		if !isCloser(t.tok) {
			return false
		}
	}
	return true
}

// controlLine reports whether a line starting with t is an if, for,
// switch or else, whose last brace opens a block.
func controlLine(t token.Token) bool {
	switch t {
	case token.IF, token.FOR, token.SWITCH, token.ELSE:
		return true
	}
	return false
}

// grouping reports whether a parenthesis after prev groups an
// expression rather than opening a call, a conversion, a signature or a
// group of specs.
func grouping(prev token.Token) bool {
	switch prev {
	case token.IDENT, token.RPAREN, token.RBRACK, token.RBRACE, token.FUNC, token.CONST, token.VAR, token.TYPE, token.IMPORT, token.STRING:
		return false
	}
	return true
}

// stripsParens reports whether gofmt drops the parentheses around an
// expression after prev: the header of an if, for or switch, or the
// operand of range.
func stripsParens(prev, lineStart token.Token) bool {
	switch prev {
	case token.IF, token.FOR, token.SWITCH, token.RANGE:
		return true
	case token.SEMICOLON:
		return controlLine(lineStart)
	}
	return false
}
