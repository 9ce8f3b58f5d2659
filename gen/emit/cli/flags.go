package cli

import (
	"slices"
	"strings"

	"github.com/cetpgen/cetpgen/gen/ir"
	"github.com/cetpgen/cetpgen/runtime/cetpcli"
)

// param is one top-level property of a tool's input schema and its flag,
// if it has one.
type param struct {
	r        resolver
	prop     string
	schema   map[string]any
	required bool
	flag     *cetpcli.Flag
}

// params applies the flag rule (see the package doc) to the input schema
// of t; properties come in name order.
func params(t *ir.Tool) []param {
	names, props, req := inputProperties(t.Input.Value)
	r := resolver{root: t.Input.Value}
	count := map[string]int{}
	for _, n := range names {
		count[flagName(n)]++
	}
	out := make([]param, len(names))
	for i, n := range names {
		out[i] = param{r: r, prop: n, schema: r.view(props[n]), required: req[n]}
		if f := flagName(n); f != "" && count[f] == 1 {
			out[i].flag = r.newFlag(f, n, out[i].schema)
		}
	}
	return out
}

// flagName is the flag of a property name ("include_closed_today" ->
// "include-closed-today", "dueAt" -> "due-at"), or "" when the property
// cannot have one.
func flagName(prop string) string {
	n, ok := kebab(prop)
	if !ok || !cetpcli.FlagName.MatchString(n) || slices.Contains(cetpcli.ReservedFlags, n) {
		return ""
	}
	return n
}

// kebab lowercases prop, turning "_" and an upper-case letter after the
// first into a hyphen; ok is false for any character but ASCII letters,
// digits, "_" and "-".
func kebab(prop string) (string, bool) {
	var b strings.Builder
	for i, r := range prop {
		switch {
		case r >= 'A' && r <= 'Z':
			if i > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r + 'a' - 'A')
		case r == '_':
			b.WriteByte('-')
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-':
			b.WriteRune(r)
		default:
			return "", false
		}
	}
	return b.String(), true
}

// newFlag builds the flag name of property prop with the resolved schema
// m.
func (r resolver) newFlag(name, prop string, m map[string]any) *cetpcli.Flag {
	k, list, enum := r.flagKind(m)
	f := &cetpcli.Flag{Name: name, Property: prop, Kind: k, List: list, Enum: enum}
	if d := scalarText(m["default"]); !list && k != cetpcli.JSON && d != "" && f.Check(d) == nil {
		f.Default = d
	}
	f.Usage = r.usage(prop, m, f)
	return f
}

// usage is the flag's help: the property's description (else its name)
// and hints on the values it takes.
func (r resolver) usage(prop string, m map[string]any, f *cetpcli.Flag) string {
	u := text(m, "description")
	if u == "" {
		u = prop
	}
	if h := r.hints(m, f); len(h) > 0 {
		u += " (" + strings.Join(h, "; ") + ")"
	}
	return u
}

// hints describe the values a flag takes: enum values, format, repetition,
// JSON.
func (r resolver) hints(m map[string]any, f *cetpcli.Flag) []string {
	var hints []string
	if f.Kind == cetpcli.Enum {
		hints = append(hints, "one of: "+strings.Join(f.Enum, ", "))
	}
	if fm := r.format(m, f.List); fm != "" {
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
func (r resolver) format(m map[string]any, list bool) string {
	if list {
		return text(r.view(m["items"]), "format")
	}
	return text(m, "format")
}
