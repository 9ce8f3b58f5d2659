package cli

import (
	"strings"

	"github.com/cetpgen/cetpgen/gen/ir"
	"github.com/cetpgen/cetpgen/runtime/cetpcli"
)

// param is one declared member of a tool's input object, as the IR's
// schema graph resolved it, and its flag, if it has one.
type param struct {
	prop *ir.Prop
	flag *cetpcli.Flag
}

// params applies the flag rule (see the package doc) to the input schema
// of t; members come in name order, their flag names as the IR named
// them (ir.Prop.CLIFlag).
func params(t *ir.Tool) []param {
	in := t.Input.Graph.Root.Resolved()
	if in.Kind != ir.KindObject {
		return nil
	}
	out := make([]param, len(in.Props))
	for i, p := range in.Props {
		out[i] = param{prop: p}
		if p.CLIFlag != "" {
			out[i].flag = newFlag(p)
		}
	}
	return out
}

// newFlag builds the flag of member p.
func newFlag(p *ir.Prop) *cetpcli.Flag {
	k, list, enum := flagKind(p.Node)
	f := &cetpcli.Flag{Name: p.CLIFlag, Property: p.Name, Kind: k, List: list, Enum: enum}
	d, _ := p.Node.Annotation("default")
	if d := scalarText(d); !list && k != cetpcli.JSON && d != "" && f.Check(d) == nil {
		f.Default = d
	}
	f.Usage = usage(p, f)
	return f
}

// usage is the flag's help: the member's description (else its name)
// and hints on the values it takes, "required" first.
func usage(p *ir.Prop, f *cetpcli.Flag) string {
	u := p.Node.Text("description")
	if u == "" {
		u = p.Name
	}
	if h := hints(p, f); len(h) > 0 {
		u += " (" + strings.Join(h, "; ") + ")"
	}
	return u
}

// hints describe the values a flag takes: whether the call needs it, enum
// values, format, repetition, JSON.
func hints(p *ir.Prop, f *cetpcli.Flag) []string {
	var hints []string
	if p.Required {
		hints = append(hints, "required")
	}
	if f.Kind == cetpcli.Enum {
		hints = append(hints, "one of: "+strings.Join(f.Enum, ", "))
	}
	if fm := format(p.Node, f.List); fm != "" {
		hints = append(hints, "format "+fm)
	}
	if f.List {
		hints = append(hints, "repeat the flag for each item")
	}
	if f.Kind == cetpcli.JSON {
		hints = append(hints, "a JSON value")
	}
	return hints
}

// format is the format keyword of a scalar, or of a list's items.
func format(n *ir.Node, list bool) string {
	if list {
		return n.Resolved().Items.Text("format")
	}
	return n.Text("format")
}
