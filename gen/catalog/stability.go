package catalog

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/cetpgen/cetpgen/gen/internal/par"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// gateStability is the in-run byte-stability gate: Input.Root, which may
// be user code, must build the same tree every time it is called, or two
// successive generations would differ. It calls Root a second time and
// compares the fingerprint of that tree with the one of root, the tree the
// generation binds, and names the first difference. It reads root before
// anything else does; the second tree is built and read beside it.
func gateStability(in *Input, root *cobra.Command) error {
	var a, b []string
	par.Do(func() { a = treeFingerprint(root) }, func() { b = treeFingerprint(in.Root()) })
	for i := range max(len(a), len(b)) {
		if i >= len(a) || i >= len(b) || a[i] != b[i] {
			return fmt.Errorf("stability gate: two cobra trees from Input.Root differ: first %s, then %s",
				fingerprintLine(a, i), fingerprintLine(b, i))
		}
	}
	return nil
}

// fingerprintLine is line i of a fingerprint, readable, or a note that it
// has none.
func fingerprintLine(lines []string, i int) string {
	if i >= len(lines) {
		return "nothing more"
	}
	fields := strings.Split(strings.TrimSuffix(lines[i], "\x00"), "\x00")
	for j := range fields {
		if j%2 == 1 {
			fields[j] = strconv.Quote(fields[j])
		}
	}
	return strings.Join(fields, " ")
}

// treeFingerprint is one line for every command of the tree below root
// and one for every flag it defines, in an order that does not depend on
// the order commands and flags were added in. A command's line holds its
// path, Use, Short, Long, Example, Aliases, Hidden, Deprecated and
// annotations; a flag's its name, shorthand, type, default, usage,
// hidden, deprecation and annotations. A line alternates field names and
// values, each ended by a NUL.
func treeFingerprint(root *cobra.Command) []string {
	var lines []string
	var b strings.Builder
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		path := CommandPath(c)
		b.Reset()
		fields(&b, "command", path, "use", c.Use, "short", c.Short, "long", c.Long, "example", c.Example,
			"aliases", strings.Join(c.Aliases, "\x01"), "hidden", strconv.FormatBool(c.Hidden),
			"deprecated", c.Deprecated, "annotations", sortedMap(c.Annotations))
		lines = append(lines, b.String())
		lines = appendFlags(lines, &b, path, "flag", c.Flags())
		lines = appendFlags(lines, &b, path, "persistent flag", c.PersistentFlags())
		children := slices.Clone(c.Commands())
		slices.SortFunc(children, func(x, y *cobra.Command) int { return strings.Compare(x.Name(), y.Name()) })
		for _, child := range children {
			walk(child)
		}
	}
	walk(root)
	return lines
}

// appendFlags appends one line per flag of fs, sorted by name.
func appendFlags(lines []string, b *strings.Builder, path, kind string, fs *pflag.FlagSet) []string {
	var flags []*pflag.Flag
	fs.VisitAll(func(f *pflag.Flag) { flags = append(flags, f) })
	slices.SortFunc(flags, func(x, y *pflag.Flag) int { return strings.Compare(x.Name, y.Name) })
	for _, f := range flags {
		b.Reset()
		fields(b, "command", path, kind, f.Name, "shorthand", f.Shorthand, "type", f.Value.Type(),
			"default", f.DefValue, "usage", f.Usage, "hidden", strconv.FormatBool(f.Hidden),
			"deprecated", f.Deprecated, "annotations", sortedMap(f.Annotations))
		lines = append(lines, b.String())
	}
	return lines
}

// fields writes each of kv, a field name or value, ended by a NUL.
func fields(b *strings.Builder, kv ...string) {
	for _, s := range kv {
		b.WriteString(s)
		b.WriteByte(0)
	}
}

// sortedMap writes m with its keys sorted, each key and value ended by a
// control character.
func sortedMap[V string | []string](m map[string]V) string {
	if len(m) == 0 {
		return ""
	}
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(m)) {
		b.WriteString(k)
		b.WriteByte(1)
		switch v := any(m[k]).(type) {
		case string:
			b.WriteString(v)
		case []string:
			b.WriteString(strings.Join(v, "\x02"))
		}
		b.WriteByte(1)
	}
	return b.String()
}
