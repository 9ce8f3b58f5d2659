package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/cetpgen/cetpgen/gen/diff"
	"gopkg.in/yaml.v3"
)

// configProblems collects every problem of a diff config, each at its
// line and column, so that one run reports them all.
type configProblems struct {
	path string
	list []string
}

// addf records a problem at node n.
func (p *configProblems) addf(n *yaml.Node, format string, args ...any) {
	p.list = append(p.list, fmt.Sprintf("%s:%d:%d: %s", p.path, n.Line, n.Column, fmt.Sprintf(format, args...)))
}

// err returns the problems as one error, or nil.
func (p *configProblems) err() error {
	if len(p.list) == 0 {
		return nil
	}
	return &configError{path: p.path, problems: p.list}
}

// configError is a config with problems: each one a positioned line
// (FILE:LINE:COLUMN: message, as validate prints diagnostics).
type configError struct {
	path     string
	problems []string
}

func (e *configError) Error() string { return strings.Join(e.problems, "\n") }

// report prints the positioned problems to w, one a line, and returns the
// usage error that closes the run.
func (e *configError) report(w io.Writer) error {
	for _, line := range e.problems {
		fmt.Fprintln(w, line)
	}
	return failure(fmt.Errorf("%d problem(s) in %s; nothing was compared", len(e.problems), e.path))
}

// parseDiffConfig decodes a config strictly: unknown keys, an unknown
// mode, unknown rules and severities and acknowledgements without a
// reason are errors, all reported at once with their positions.
func parseDiffConfig(path string, data []byte) (*diff.Config, error) {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return &diff.Config{}, nil
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	p := &configProblems{path: path}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	checkConfigRoot(p, root)
	if err := p.err(); err != nil {
		return nil, err
	}
	var cfg diff.Config
	if err := root.Decode(&cfg); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &cfg, nil
}

// checkConfigRoot checks the top-level mapping.
func checkConfigRoot(p *configProblems, root *yaml.Node) {
	if root.Kind != yaml.MappingNode {
		p.addf(root, "the config must be a mapping with mode, severity and acknowledge")
		return
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		key, val := root.Content[i], root.Content[i+1]
		switch key.Value {
		case "mode":
			if !diff.ValidMode(val.Value) || val.Kind != yaml.ScalarNode {
				p.addf(val, "mode %q is not containment or declared", val.Value)
			}
		case "severity":
			checkSeverities(p, val)
		case "acknowledge":
			checkAcks(p, val)
		default:
			p.addf(key, "unknown key %q (want mode, severity or acknowledge)", key.Value)
		}
	}
}

// checkSeverities checks the rule-to-severity mapping.
func checkSeverities(p *configProblems, n *yaml.Node) {
	if n.Kind != yaml.MappingNode {
		p.addf(n, "severity must map rule IDs to breaking, dangerous or info")
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, val := n.Content[i], n.Content[i+1]
		if _, ok := diff.Lookup(key.Value); !ok {
			p.addf(key, "severity: unknown rule %q", key.Value)
		}
		if !diff.ValidSeverity(val.Value) || val.Kind != yaml.ScalarNode {
			p.addf(val, "severity of %s: %q is not breaking, dangerous or info", key.Value, val.Value)
		}
	}
}

// checkAcks checks the acknowledgement list.
func checkAcks(p *configProblems, n *yaml.Node) {
	if n.Kind != yaml.SequenceNode {
		p.addf(n, "acknowledge must be a list of {rule, tool, reason}")
		return
	}
	for i, item := range n.Content {
		if item.Kind != yaml.MappingNode {
			p.addf(item, "acknowledge[%d] must be a mapping with rule, tool and reason", i)
			continue
		}
		fields := map[string]*yaml.Node{}
		for j := 0; j+1 < len(item.Content); j += 2 {
			key, val := item.Content[j], item.Content[j+1]
			switch key.Value {
			case "rule", "tool", "reason":
				fields[key.Value] = val
			default:
				p.addf(key, "acknowledge[%d]: unknown key %q (want rule, tool, reason)", i, key.Value)
			}
		}
		checkAck(p, item, i, fields)
	}
}

// checkAck checks one acknowledgement's rule and reason.
func checkAck(p *configProblems, item *yaml.Node, i int, fields map[string]*yaml.Node) {
	rule, ok := fields["rule"]
	switch {
	case !ok:
		p.addf(item, "acknowledge[%d]: name the rule", i)
	default:
		if _, known := diff.Lookup(rule.Value); !known {
			p.addf(rule, "acknowledge[%d]: unknown rule %q", i, rule.Value)
		}
	}
	if r, ok := fields["reason"]; !ok || strings.TrimSpace(r.Value) == "" {
		p.addf(item, "acknowledge[%d]: give a reason", i)
	}
}
