package kotlin

import (
	"fmt"
	"strconv"
	"strings"
)

// constKind is one kind of constant of the validators object.
type constKind int

// The kinds of constants, in the order the object declares them.
const (
	constPattern constKind = iota // a compiled pattern
	constNumber                   // an exact number
	constValue                    // the JSON value of an enum member or a const
	constEnum                     // the value list of an enum
	constNames                    // a set of declared member names
	constKinds
)

// constPrefixes are the constants' name prefixes, by kind.
var constPrefixes = [constKinds]string{"PATTERN", "NUMBER", "VALUE", "ENUM", "NAMES"}

// constPool allocates the object's constants, one per distinct value.
type constPool struct {
	sets [constKinds]constSet
}

// constSet is one kind of constant: names by expression, in first-use order.
type constSet struct {
	prefix string
	byExpr map[string]string
	list   []constView
}

// newConstPool returns an empty pool with one set per kind of constant.
func newConstPool() *constPool {
	p := &constPool{}
	for k := range p.sets {
		p.sets[k] = constSet{prefix: constPrefixes[k], byExpr: map[string]string{}}
	}
	return p
}

// name returns the constant built by expr, allocating it on first use.
func (cs *constSet) name(expr string) string {
	if n, ok := cs.byExpr[expr]; ok {
		return n
	}
	n := cs.prefix + "_" + strconv.Itoa(len(cs.list))
	cs.byExpr[expr] = n
	cs.list = append(cs.list, constView{Name: n, Expr: expr})
	return n
}

// lists returns the constants of each kind, in first-use order.
func (p *constPool) lists() (patterns, numbers, values, enums, names []constView) {
	return p.sets[constPattern].list, p.sets[constNumber].list, p.sets[constValue].list, p.sets[constEnum].list, p.sets[constNames].list
}

// adopt allocates one tool's constants in the order the tool first used
// them and returns their names, by placeholder index. An expression that
// names earlier constants (an enum's values) is resolved first, so equal
// constants of different tools are one.
func (p *constPool) adopt(l *localConsts) ([]string, error) {
	names := make([]string, len(l.list))
	for i, c := range l.list {
		expr, err := resolve(c.expr, names[:i])
		if err != nil {
			return nil, err
		}
		names[i] = p.sets[c.kind].name(expr)
	}
	return names, nil
}

// localConsts are the constants one tool uses, in first-use order, each
// named by a placeholder until the pool adopts them: a NUL byte, the
// index, a NUL byte. No generated text holds a NUL otherwise, since every
// literal escapes it.
type localConsts struct {
	list  []localConst
	byKey map[localConst]string
}

// localConst is one constant: its kind and the expression that builds it.
type localConst struct {
	kind constKind
	expr string
}

// newLocalConsts returns an empty list of one tool's constants.
func newLocalConsts() *localConsts {
	return &localConsts{byKey: map[localConst]string{}}
}

// name returns the placeholder of the constant of kind k built by expr.
func (l *localConsts) name(k constKind, expr string) string {
	c := localConst{kind: k, expr: expr}
	if n, ok := l.byKey[c]; ok {
		return n
	}
	n := "\x00" + strconv.Itoa(len(l.list)) + "\x00"
	l.byKey[c] = n
	l.list = append(l.list, c)
	return n
}

// resolve replaces the placeholders in s with the names they index. A
// NUL that does not open a placeholder of a known index is an error: some
// text reached the output unescaped.
func resolve(s string, names []string) (string, error) {
	i := strings.IndexByte(s, 0)
	if i < 0 {
		return s, nil
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i >= 0 {
		b.WriteString(s[:i])
		s = s[i+1:]
		j := strings.IndexByte(s, 0)
		if j < 0 {
			return "", fmt.Errorf("unterminated constant placeholder in %q", s)
		}
		n, err := strconv.Atoi(s[:j])
		if err != nil || n < 0 || n >= len(names) {
			return "", fmt.Errorf("bad constant placeholder %q", s[:j])
		}
		b.WriteString(names[n])
		s = s[j+1:]
		i = strings.IndexByte(s, 0)
	}
	b.WriteString(s)
	return b.String(), nil
}
