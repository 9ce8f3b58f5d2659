package importer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/cetpgen/cetpgen/gen/spec"
	"gopkg.in/yaml.v3"
)

// Comment markers (see the package documentation).
const (
	markPlaceholder = "PLACEHOLDER"
	markGuess       = "GUESS"
	markNote        = "NOTE"
)

// comments are the review comments of one file, by the JSON pointer of
// the value they sit above.
type comments map[string][]string

func (c comments) add(ptr, mark, format string, args ...any) {
	c[ptr] = append(c[ptr], mark+": "+fmt.Sprintf(format, args...))
}

// node converts a JSON value (objects as *object, numbers json.Number)
// into a YAML node, in the value's key order.
func node(v any) *yaml.Node {
	switch x := v.(type) {
	case *object:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		for _, k := range x.keys {
			n.Content = append(n.Content, strNode(k), node(x.vals[k]))
		}
		return n
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, e := range x {
			n.Content = append(n.Content, node(e))
		}
		if len(x) > 0 && allScalars(x) {
			n.Style = yaml.FlowStyle
		}
		return n
	case string:
		return strNode(x)
	case json.Number:
		tag := "!!int"
		if strings.ContainsAny(string(x), ".eE") {
			tag = "!!float"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: string(x)}
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: fmt.Sprint(x)}
	case nil:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	}
	panic(fmt.Sprintf("importer: no YAML form for %T", v))
}

func strNode(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if strings.ContainsAny(s, "\n\r\t") || strings.TrimSpace(s) != s || !isPrintable(s) {
		n.Style = yaml.DoubleQuotedStyle // exact, whatever the white space or control characters
	}
	return n
}

func isPrintable(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r == 0xfeff || (r >= 0x80 && r < 0xa0) || r == 0x2028 || r == 0x2029 {
			return false
		}
	}
	return true
}

func allScalars(list []any) bool {
	for _, e := range list {
		switch x := e.(type) {
		case *object, []any:
			return false
		case string:
			if len(x) > 40 || strings.ContainsAny(x, "\n\r\t") {
				return false
			}
		}
	}
	return true
}

// attach puts each comment above the key of the value it belongs to, or
// of the nearest enclosing value that exists in n.
func attach(n *yaml.Node, c comments) {
	for _, ptr := range sortedPointers(c) {
		lines := c[ptr]
		key := keyNode(n, ptr)
		if key == nil {
			n.HeadComment = joinComment(n.HeadComment, lines)
			continue
		}
		key.HeadComment = joinComment(key.HeadComment, lines)
	}
}

func joinComment(have string, lines []string) string {
	var fresh []string
	for _, l := range lines {
		if !strings.Contains(have, "# "+l) && !slices.Contains(fresh, l) {
			fresh = append(fresh, l)
		}
	}
	if len(fresh) == 0 {
		return have
	}
	text := "# " + strings.Join(fresh, "\n# ")
	if have == "" {
		return text
	}
	return have + "\n" + text
}

// keyNode is the key node of the value at ptr, or of its nearest
// ancestor that is a mapping entry; nil for the root.
func keyNode(root *yaml.Node, ptr string) *yaml.Node {
	for ptr != "" {
		if k := findKey(root, ptr); k != nil {
			return k
		}
		ptr = spec.Parent(ptr)
	}
	return nil
}

func findKey(n *yaml.Node, ptr string) *yaml.Node {
	var key *yaml.Node
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = spec.UnescapeToken(tok)
		switch n.Kind {
		case yaml.MappingNode:
			var next *yaml.Node
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == tok {
					key, next = n.Content[i], n.Content[i+1]
					break
				}
			}
			if next == nil {
				return nil
			}
			n = next
		case yaml.SequenceNode:
			var i int
			if _, err := fmt.Sscanf(tok, "%d", &i); err != nil || i < 0 || i >= len(n.Content) {
				return nil
			}
			n, key = n.Content[i], nil
			if n.Kind == yaml.MappingNode && len(n.Content) > 0 {
				key = n.Content[0] // a list item's comment sits above its first key
			}
		default:
			return nil
		}
	}
	return key
}

// encode writes a YAML file: the head comment lines, then n.
func encode(head []string, n *yaml.Node) ([]byte, error) {
	var b bytes.Buffer
	for _, h := range head {
		b.WriteString("# " + h + "\n")
	}
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(n); err != nil {
		return nil, fmt.Errorf("importer: encode YAML: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("importer: encode YAML: %w", err)
	}
	return b.Bytes(), nil
}
