package spec

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/cetpgen/cetpgen/gen/diag"
	"github.com/cetpgen/cetpgen/gen/source"
	"gopkg.in/yaml.v3"
)

// converter turns a yaml.v3 node tree into a JSON value, recording where
// each value and key came from and rejecting what JSON cannot hold.
type converter struct {
	doc   *Doc
	nodes int
	diags diag.List
	// stopped is set once a file-wide limit was hit, so one alias bomb
	// yields one diagnostic.
	stopped bool
	// alias is the outermost alias being expanded, where a node limit hit
	// inside its expansion is reported.
	alias *yaml.Node
}

func (c *converter) errorf(n *yaml.Node, rule, format string, args ...any) {
	c.diags.Errorf(c.doc.pos(n), rule, format, args...)
}

// value converts n, found at nesting depth depth.
func (c *converter) value(n *yaml.Node, depth int) (any, bool) {
	if c.stopped {
		return nil, false
	}
	if c.nodes++; c.nodes > MaxNodes {
		c.stopped = true
		c.nodeLimit(n)
		return nil, false
	}
	if depth > MaxDepth {
		c.stopped = true
		c.errorf(n, "too-deep", "values nest more than %d levels deep", MaxDepth)
		return nil, false
	}
	if n.Kind == yaml.AliasNode {
		if c.alias != nil {
			return c.value(n.Alias, depth+1)
		}
		c.alias = n
		v, ok := c.value(n.Alias, depth+1)
		c.alias = nil
		return v, ok
	}
	switch n.Kind {
	case yaml.MappingNode:
		return c.mapping(n, depth)
	case yaml.SequenceNode:
		return c.sequence(n, depth)
	default:
		return c.scalar(n)
	}
}

// nodeLimit reports the file-wide node limit at the alias whose expansion
// crossed it (or at the node itself in a file without aliases).
func (c *converter) nodeLimit(n *yaml.Node) {
	at := n
	if c.alias != nil {
		at = c.alias
	}
	pos := source.Pos{File: c.doc.Path, Line: at.Line, Col: at.Column}
	if c.alias == nil {
		c.diags.Errorf(pos, "alias-limit", "file expands to more than %d nodes; simplify it", MaxNodes)
		return
	}
	c.diags.Errorf(pos, "alias-limit",
		"expanding this alias takes the file past %d nodes (aliases count at each use); simplify it", MaxNodes)
}

func (c *converter) mapping(n *yaml.Node, depth int) (any, bool) {
	out := make(map[string]any, len(n.Content)/2)
	ok := true
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, val := n.Content[i], n.Content[i+1]
		name, keyOK := c.key(key)
		if !keyOK {
			ok = false
			continue
		}
		if _, dup := out[name]; dup {
			prev := firstKey(n, name)
			c.errorf(key, "duplicate-key", "key %q is already defined in this mapping, at line %d column %d", name, prev.Line, prev.Column)
			ok = false
			continue
		}
		v, valOK := c.value(val, depth+1)
		out[name] = v
		ok = ok && valOK
	}
	return out, ok
}

// firstKey returns the first key node of mapping n that names name.
func firstKey(n *yaml.Node, name string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := deref(n.Content[i]); k.Kind == yaml.ScalarNode && k.Value == name {
			return k
		}
	}
	return n
}

// key checks that a mapping key is a plain string and returns it.
func (c *converter) key(k *yaml.Node) (string, bool) {
	if k.Kind == yaml.AliasNode {
		k = k.Alias
	}
	switch {
	case k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge":
		c.errorf(k, "yaml-only-value", "merge keys (<<) are YAML-only; write the keys out")
		return "", false
	case k.Kind != yaml.ScalarNode || k.ShortTag() != "!!str":
		c.errorf(k, "non-string-key", "mapping keys must be strings; quote this key")
		return "", false
	}
	return k.Value, true
}

func (c *converter) sequence(n *yaml.Node, depth int) (any, bool) {
	out := make([]any, len(n.Content))
	ok := true
	for i, item := range n.Content {
		v, itemOK := c.value(item, depth+1)
		out[i] = v
		ok = ok && itemOK
	}
	return out, ok
}

var (
	decimalIntRE = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)
	jsonNumberRE = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)
)

func (c *converter) scalar(n *yaml.Node) (any, bool) {
	switch tag := n.ShortTag(); tag {
	case "!!str":
		return n.Value, true
	case "!!bool":
		return n.Value == "true", c.canonicalBool(n)
	case "!!null":
		return nil, true
	case "!!int":
		return c.number(n, decimalIntRE)
	case "!!float":
		return c.number(n, jsonNumberRE)
	default:
		c.errorf(n, "yaml-only-value", "%s values are YAML-only and JSON cannot hold them; quote the value to make it a string", tagName(tag))
		return nil, false
	}
}

// canonicalBool accepts only the JSON spellings true and false.
func (c *converter) canonicalBool(n *yaml.Node) bool {
	if n.Value == "true" || n.Value == "false" {
		return true
	}
	c.errorf(n, "yaml-only-value", "boolean %q is YAML-only; write true or false", n.Value)
	return false
}

// number keeps the exact literal of a number when it is a JSON number, after
// the few harmless rewrites YAML allows (a leading "+", ".5", "5.").
func (c *converter) number(n *yaml.Node, re *regexp.Regexp) (any, bool) {
	lit := normalizeNumber(n.Value)
	if !re.MatchString(lit) {
		c.errorf(n, "yaml-only-value", "number %q is not a JSON number (no hex, octal, binary, infinity or NaN); write it in decimal or quote it", n.Value)
		return nil, false
	}
	return json.Number(lit), true
}

func normalizeNumber(s string) string {
	s = strings.TrimPrefix(s, "+")
	neg := strings.HasPrefix(s, "-")
	body := strings.TrimPrefix(s, "-")
	if strings.HasPrefix(body, ".") && len(body) > 1 && body[1] >= '0' && body[1] <= '9' {
		body = "0" + body
	}
	if i := strings.Index(body, "."); i >= 0 && (i+1 == len(body) || body[i+1] == 'e' || body[i+1] == 'E') {
		body = body[:i] + body[i+1:]
	}
	if neg {
		return "-" + body
	}
	return body
}

func tagName(tag string) string {
	switch tag {
	case "!!timestamp":
		return "timestamp"
	case "!!binary":
		return "binary"
	}
	return "tag " + tag
}

func itoa(i int) string {
	var buf [20]byte
	pos := len(buf)
	for {
		pos--
		buf[pos] = byte('0' + i%10)
		i /= 10
		if i == 0 {
			return string(buf[pos:])
		}
	}
}
