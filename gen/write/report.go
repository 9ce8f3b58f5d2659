package write

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/aymanbagabas/go-udiff"
)

// Bounds of the diff that Check prints. Generated files can hold very long
// lines (an embedded catalog, a schema literal), where a one-word edit of a
// spec would otherwise print the whole line twice, and a change to an
// emitter can touch every file.
const (
	// maxLineBytes is the longest diff line printed whole; longer lines
	// are cut to a window around their first difference.
	maxLineBytes = 160
	// lineContext is how many bytes a cut line keeps on each side of the
	// difference.
	lineContext = 60
	// maxFileLines is how many diff lines are printed for one file.
	maxFileLines = 60
	// maxTotalLines is how many diff lines are printed in all.
	maxTotalLines = 400
)

// report renders what Check found: a summary with one line per file, then
// a unified diff of each file, bounded per line, per file and in total.
func report(changes []change) string {
	var shown []change
	for _, c := range changes {
		if !c.userOwned {
			shown = append(shown, c)
		}
	}
	if len(shown) == 0 {
		return ""
	}
	diffs := make([][]string, len(shown))
	var b strings.Builder
	fmt.Fprintf(&b, "%d generated file(s) differ from what the specs generate:\n", len(shown))
	for i, c := range shown {
		diffs[i] = unifiedLines(c)
		fmt.Fprintf(&b, "  %-6s %s%s\n", c.verb(), c.path, lineCounts(diffs[i]))
	}
	budget := maxTotalLines
	for i, c := range shown {
		b.WriteString("\n")
		budget -= writeBounded(&b, c.path, diffs[i], budget)
	}
	return b.String()
}

// unifiedLines is the unified diff of c, one line per element.
func unifiedLines(c change) []string {
	lines := strings.SplitAfter(udiff.Unified("a/"+c.path, "b/"+c.path, string(c.old), string(c.new)), "\n")
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	}
	return lines
}

// verb says what regenerating would do to the file.
func (c change) verb() string {
	switch {
	case c.remove:
		return "delete"
	case c.old == nil:
		return "create"
	}
	return "modify"
}

// lineCounts says how many lines a unified diff adds and removes.
func lineCounts(diff []string) string {
	added, removed := 0, 0
	for _, l := range diff {
		switch {
		case isAdded(l):
			added++
		case isRemoved(l):
			removed++
		}
	}
	return fmt.Sprintf(" (+%d -%d lines)", added, removed)
}

// writeBounded writes a unified diff with long lines cut and at most
// min(budget, maxFileLines) lines, and returns how many it wrote.
func writeBounded(b *strings.Builder, path string, diff []string, budget int) int {
	lines := clipLines(diff)
	limit := min(budget, maxFileLines)
	if limit < 0 {
		limit = 0
	}
	if len(lines) <= limit {
		for _, l := range lines {
			b.WriteString(l)
		}
		return len(lines)
	}
	for _, l := range lines[:limit] {
		b.WriteString(l)
	}
	fmt.Fprintf(b, "... %d more diff line(s) of %s not shown\n", len(lines)-limit, path)
	return limit
}

// clipLines cuts every over-long removed or added line of a unified diff
// to a window around where it differs from its counterpart (the line it
// replaces), so a changed word inside a long line stays visible.
func clipLines(lines []string) []string {
	out := make([]string, len(lines))
	copy(out, lines)
	for i := 0; i < len(out); {
		j := i
		for j < len(out) && isRemoved(out[j]) {
			j++
		}
		k := j
		for k < len(out) && isAdded(out[k]) {
			k++
		}
		if j == i && k == j {
			out[i] = clipAlone(out[i])
			i++
			continue
		}
		for n := 0; n < max(j-i, k-j); n++ {
			switch {
			case i+n < j && j+n < k:
				out[i+n], out[j+n] = clipPair(out[i+n], out[j+n])
			case i+n < j:
				out[i+n] = clipAlone(out[i+n])
			default:
				out[j+n] = clipAlone(out[j+n])
			}
		}
		i = k
	}
	return out
}

func isRemoved(l string) bool { return strings.HasPrefix(l, "-") && !strings.HasPrefix(l, "--- ") }
func isAdded(l string) bool   { return strings.HasPrefix(l, "+") && !strings.HasPrefix(l, "+++ ") }

// clipPair cuts a removed line and the added line that replaces it to the
// same window around their first and last differing bytes.
func clipPair(old, new string) (string, string) {
	if len(old) <= maxLineBytes && len(new) <= maxLineBytes {
		return old, new
	}
	a, b := old[1:], new[1:]
	prefix := 0
	for prefix < len(a) && prefix < len(b) && a[prefix] == b[prefix] {
		prefix++
	}
	suffix := 0
	for suffix < len(a)-prefix && suffix < len(b)-prefix && a[len(a)-1-suffix] == b[len(b)-1-suffix] {
		suffix++
	}
	return old[:1] + window(a, prefix, len(a)-suffix), new[:1] + window(b, prefix, len(b)-suffix)
}

// clipAlone cuts a long line that has no counterpart to its start.
func clipAlone(l string) string {
	if len(l) <= maxLineBytes || strings.HasPrefix(l, "--- ") || strings.HasPrefix(l, "+++ ") {
		return l
	}
	return l[:1] + window(l[1:], 0, 0)
}

// window returns s[from-lineContext : to+lineContext] (on rune boundaries),
// marking each cut end with "…" and the number of bytes it left out.
func window(s string, from, to int) string {
	body := strings.TrimSuffix(s, "\n")
	start := runeStart(body, max(from-lineContext, 0))
	end := runeStart(body, min(max(to, from)+lineContext, len(body)))
	var w strings.Builder
	if start > 0 {
		fmt.Fprintf(&w, "…(%d bytes)…", start)
	}
	w.WriteString(body[start:end])
	if end < len(body) {
		fmt.Fprintf(&w, "…(%d bytes)…", len(body)-end)
	}
	if strings.HasSuffix(s, "\n") {
		w.WriteString("\n")
	}
	return w.String()
}

// runeStart moves i back to the start of the rune that holds byte i.
func runeStart(s string, i int) int {
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}
