// Package diag holds user-facing diagnostics: problems in the specs, each
// with a position, a severity, a message and a stable rule ID.
package diag

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/cetpgen/cetpgen/gen/source"
)

// Severity says whether a diagnostic fails a run.
type Severity int

// The severities. Warnings alone never fail a run.
const (
	Error Severity = iota
	Warning
)

// String returns "error" or "warning", the words of the text format.
func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// Diagnostic is one problem found in the specs.
type Diagnostic struct {
	Pos      source.Pos
	Severity Severity
	Message  string
	Rule     string
}

// String formats d as path:line:col: severity: message [rule].
func (d Diagnostic) String() string {
	return fmt.Sprintf("%s: %s: %s [%s]", d.Pos, d.Severity, d.Message, d.Rule)
}

// List is a collection of diagnostics. The zero value is ready to use.
type List []Diagnostic

// Errorf adds an error at pos under rule.
func (l *List) Errorf(pos source.Pos, rule, format string, args ...any) {
	*l = append(*l, Diagnostic{Pos: pos, Severity: Error, Rule: rule, Message: fmt.Sprintf(format, args...)})
}

// Warnf adds a warning at pos under rule.
func (l *List) Warnf(pos source.Pos, rule, format string, args ...any) {
	*l = append(*l, Diagnostic{Pos: pos, Severity: Warning, Rule: rule, Message: fmt.Sprintf(format, args...)})
}

// Add appends other to l.
func (l *List) Add(other ...Diagnostic) { *l = append(*l, other...) }

// HasErrors reports whether any diagnostic in l is an error.
func (l List) HasErrors() bool {
	return slices.ContainsFunc(l, func(d Diagnostic) bool { return d.Severity == Error })
}

// Count returns how many errors and warnings l holds.
func (l List) Count() (errors, warnings int) {
	for _, d := range l {
		if d.Severity == Error {
			errors++
		} else {
			warnings++
		}
	}
	return errors, warnings
}

// Sorted returns a copy of l ordered by position, then rule and message, with
// exact duplicates removed, so output never depends on the order of work.
func (l List) Sorted() List {
	out := slices.Clone(l)
	slices.SortFunc(out, compare)
	return slices.Compact(out)
}

func compare(a, b Diagnostic) int {
	if a.Pos != b.Pos {
		if a.Pos.Less(b.Pos) {
			return -1
		}
		return 1
	}
	return cmp.Or(cmp.Compare(a.Severity, b.Severity), cmp.Compare(a.Rule, b.Rule), cmp.Compare(a.Message, b.Message))
}
