package diag

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Formats lists the output formats Write accepts.
var Formats = []string{"text", "json", "github"}

// Write prints l, sorted, to w in format ("text", "json" or "github").
func Write(w io.Writer, l List, format string) error {
	l = l.Sorted()
	switch format {
	case "text", "":
		return writeText(w, l)
	case "json":
		return writeJSON(w, l)
	case "github":
		return writeGitHub(w, l)
	}
	return fmt.Errorf("unknown diagnostics format %q (want one of %s)", format, strings.Join(Formats, ", "))
}

func writeText(w io.Writer, l List) error {
	var b strings.Builder
	for _, d := range l {
		b.WriteString(d.String())
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// JSONDiagnostic is the wire shape of one diagnostic in --format json.
type JSONDiagnostic struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Severity string `json:"severity"`
	Rule     string `json:"rule"`
	Message  string `json:"message"`
}

// JSONReport is the wire shape of --format json: every diagnostic and the
// totals, so a machine need not count.
type JSONReport struct {
	Diagnostics []JSONDiagnostic `json:"diagnostics"`
	Errors      int              `json:"errors"`
	Warnings    int              `json:"warnings"`
}

func writeJSON(w io.Writer, l List) error {
	r := JSONReport{Diagnostics: make([]JSONDiagnostic, 0, len(l))}
	for _, d := range l {
		r.Diagnostics = append(r.Diagnostics, JSONDiagnostic{
			File: d.Pos.File, Line: d.Pos.Line, Column: d.Pos.Col,
			Severity: d.Severity.String(), Rule: d.Rule, Message: d.Message,
		})
	}
	r.Errors, r.Warnings = l.Count()
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

// writeGitHub prints workflow commands (::error file=…,line=…,col=…::msg),
// which GitHub Actions turns into annotations on the changed files.
func writeGitHub(w io.Writer, l List) error {
	var b strings.Builder
	for _, d := range l {
		fmt.Fprintf(&b, "::%s file=%s,line=%d,col=%d,title=%s::%s\n",
			d.Severity, escapeProperty(d.Pos.File), d.Pos.Line, d.Pos.Col,
			escapeProperty("cetpgen "+d.Rule), escapeData(d.Message))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// escapeData escapes a workflow command's message as the runner expects.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a workflow command's property value.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
