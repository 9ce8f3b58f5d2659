package diff

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Formats lists the report formats Write accepts.
var Formats = []string{"markdown", "json", "github"}

// Write prints the report to w in format ("markdown", "json" or "github").
func (r *Report) Write(w io.Writer, format string) error {
	var b strings.Builder
	switch format {
	case "markdown", "":
		r.markdown(&b)
	case "json":
		if err := r.json(&b); err != nil {
			return err
		}
	case "github":
		r.github(&b)
	default:
		return fmt.Errorf("unknown report format %q (want one of %s)", format, strings.Join(Formats, ", "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// why returns the rule's explanation.
func why(id string) string { return rules[id].Why }

// markdown writes the review report: a verdict line, a summary table, then
// per tool (the Provider first) its changes, safety first.
func (r *Report) markdown(b *strings.Builder) {
	fmt.Fprintf(b, "## cetpgen diff: `%s`\n\n", r.ProviderID)
	counts, acked := r.counts()
	fmt.Fprintf(b, "**Verdict: %s** (%d breaking, %d dangerous, %d info, %d acknowledged; contract mode: %s)\n\n",
		r.Verdict(), counts[Breaking], counts[Dangerous], counts[Info], acked, r.Mode)
	r.revisionLine(b)
	if len(r.Changes) == 0 {
		b.WriteString("No changes that affect Consumers.\n")
		return
	}
	r.summaryTable(b)
	for _, tool := range r.sectionOrder() {
		r.toolSection(b, tool)
	}
}

// revisionLine writes the old and new revision.
func (r *Report) revisionLine(b *strings.Builder) {
	if r.OldRevision == r.NewRevision {
		fmt.Fprintf(b, "Tool-set revision unchanged: `%s`\n\n", r.NewRevision)
		return
	}
	fmt.Fprintf(b, "Tool-set revision: `%s` -> `%s`\n\n", r.OldRevision, r.NewRevision)
}

// summaryTable writes one row per tool with changes.
func (r *Report) summaryTable(b *strings.Builder) {
	b.WriteString("| Tool | Breaking | Dangerous | Info | Input | Output |\n")
	b.WriteString("| --- | ---: | ---: | ---: | --- | --- |\n")
	for _, tool := range r.toolNames() {
		n := map[Severity]int{}
		for _, c := range r.changesOf(tool) {
			if !c.Acknowledged {
				n[c.Severity]++
			}
		}
		in, out := r.schemaVerdict(tool)
		fmt.Fprintf(b, "| %s | %d | %d | %d | %s | %s |\n", toolLabel(tool), n[Breaking], n[Dangerous], n[Info], in, out)
	}
	b.WriteString("\n")
}

// schemaVerdict returns a tool's input and output verdicts, or dashes.
func (r *Report) schemaVerdict(tool string) (string, string) {
	for _, v := range r.Tools {
		if v.Tool == tool {
			return v.Input, v.Output
		}
	}
	return "-", "-"
}

// toolLabel names a tool, or the Provider for "".
func toolLabel(tool string) string {
	if tool == "" {
		return "(provider)"
	}
	return "`" + tool + "`"
}

// changesOf returns the changes of one tool, in report order.
func (r *Report) changesOf(tool string) []Change {
	var out []Change
	for _, c := range r.Changes {
		if c.Tool == tool {
			out = append(out, c)
		}
	}
	return out
}

// toolSection writes one tool's changes, grouped by category.
func (r *Report) toolSection(b *strings.Builder, tool string) {
	fmt.Fprintf(b, "### %s\n\n", toolLabel(tool))
	var last Category
	for _, c := range r.changesOf(tool) {
		if c.Category != last {
			fmt.Fprintf(b, "%s**%s**\n\n", sep(last), strings.ToUpper(string(c.Category[:1]))+string(c.Category[1:]))
			last = c.Category
		}
		writeItem(b, c)
	}
	b.WriteString("\n")
}

// sep separates category groups.
func sep(last Category) string {
	if last == "" {
		return ""
	}
	return "\n"
}

// writeItem writes one change as a list item.
func writeItem(b *strings.Builder, c Change) {
	sev := "**" + string(c.Severity) + "**"
	if c.Acknowledged {
		sev = "~~" + string(c.Severity) + "~~ acknowledged (" + c.Reason + ")"
	}
	verdict := ""
	if c.Undecided {
		verdict = " verdict: unknown."
	}
	fmt.Fprintf(b, "- %s `%s`: %s (`%s`)\n  %s%s\n", sev, c.Rule, mdEscape(c.Message), c.Pos, why(c.Rule), verdict)
}

// mdEscape keeps spec text from breaking the Markdown around it.
func mdEscape(s string) string {
	return strings.NewReplacer("|", "\\|", "<", "&lt;", "\n", " ").Replace(s)
}

// jsonChange is the wire shape of one change in --format json.
type jsonChange struct {
	Rule         string `json:"rule"`
	Severity     string `json:"severity"`
	Category     string `json:"category"`
	Tool         string `json:"tool,omitempty"`
	Message      string `json:"message"`
	Why          string `json:"why"`
	File         string `json:"file"`
	Line         int    `json:"line"`
	Column       int    `json:"column"`
	Verdict      string `json:"verdict,omitempty"`
	Acknowledged bool   `json:"acknowledged"`
	Reason       string `json:"reason,omitempty"`
}

// jsonReport is the wire shape of --format json.
type jsonReport struct {
	ProviderID  string         `json:"provider_id"`
	Mode        Mode           `json:"mode"`
	Old         string         `json:"old"`
	New         string         `json:"new"`
	OldRevision string         `json:"old_revision"`
	NewRevision string         `json:"new_revision"`
	Verdict     string         `json:"verdict"`
	Fails       bool           `json:"fails"`
	Counts      map[string]int `json:"counts"`
	Tools       []ToolVerdict  `json:"tools"`
	Changes     []jsonChange   `json:"changes"`
}

// json writes the report as indented JSON.
func (r *Report) json(b *strings.Builder) error {
	counts, acked := r.counts()
	out := jsonReport{
		ProviderID: r.ProviderID, Mode: r.Mode, Old: r.OldDir, New: r.NewDir,
		OldRevision: r.OldRevision, NewRevision: r.NewRevision,
		Verdict: r.Verdict(), Fails: r.Fails(),
		Counts: map[string]int{"breaking": counts[Breaking], "dangerous": counts[Dangerous], "info": counts[Info], "acknowledged": acked},
		Tools:  append([]ToolVerdict{}, r.Tools...), Changes: []jsonChange{},
	}
	for _, c := range r.Changes {
		out.Changes = append(out.Changes, toJSON(c))
	}
	enc := json.NewEncoder(b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// toJSON converts a change to its wire shape.
func toJSON(c Change) jsonChange {
	j := jsonChange{
		Rule: c.Rule, Severity: string(c.Severity), Category: string(c.Category), Tool: c.Tool,
		Message: c.Message, Why: why(c.Rule), File: c.Pos.File, Line: c.Pos.Line, Column: c.Pos.Col,
		Acknowledged: c.Acknowledged, Reason: c.Reason,
	}
	if c.Undecided {
		j.Verdict = "unknown"
	}
	return j
}

// github writes workflow commands that annotate the changed lines of the
// new spec: errors for breaking, warnings for dangerous, notices for info
// and acknowledged changes.
func (r *Report) github(b *strings.Builder) {
	for _, c := range r.Changes {
		level := map[Severity]string{Breaking: "error", Dangerous: "warning", Info: "notice"}[c.Severity]
		if c.Acknowledged {
			level = "notice"
		}
		fmt.Fprintf(b, "::%s file=%s,line=%d,col=%d,title=%s::%s\n", level,
			escapeProperty(c.Pos.File), max(c.Pos.Line, 1), max(c.Pos.Col, 1),
			escapeProperty("cetpgen diff "+string(c.Severity)+" "+c.Rule), escapeData(c.Message+". "+why(c.Rule)))
	}
}

// escapeData escapes a workflow command's message as the runner expects.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a workflow command's property value.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
