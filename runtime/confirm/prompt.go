package confirm

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cetpgen/cetpgen/runtime/binding/unixsock"
	"github.com/cetpgen/cetpgen/runtime/cliout"
	"github.com/cetpgen/cetpgen/runtime/provider"
)

// Bounds of what a question shows of the arguments.
const (
	// MaxShownArgs is how many top-level arguments a question lists.
	MaxShownArgs = 16
	// MaxShownValue bounds the text of one argument's value.
	MaxShownValue = 120
)

// Prompt is a terminal confirmation UI. Each question names the caller,
// the tool (title, name, description), its effect and risk, the key
// arguments one per line, and what cannot be undone, and waits for y or N.
// One question is asked at a time; a question not answered before the
// confirmation expires, or whose call was abandoned, counts as denied;
// lines typed while no question is shown are dropped, so a stray "y"
// never answers the next one. Everything a caller wrote is escaped so
// that it cannot drive the terminal.
type Prompt struct {
	name  string
	mu    sync.Mutex // one question at a time
	out   io.Writer
	lines chan string
}

// NewPrompt returns a Prompt that writes questions on out and reads
// answers from in; name (the server's name) starts each question.
func NewPrompt(name string, in io.Reader, out io.Writer) *Prompt {
	p := &Prompt{name: name, out: out, lines: make(chan string)}
	go p.read(in)
	return p
}

// read sends every line of in to p.lines; it ends with in.
func (p *Prompt) read(in io.Reader) {
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		p.lines <- sc.Text()
	}
	close(p.lines)
}

// Confirm implements provider.Confirmer.
func (p *Prompt) Confirm(ctx context.Context, req provider.ConfirmRequest) (bool, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.drain()
	fmt.Fprint(p.out, Question(p.name, ctx, req))
	line, ok := p.answer(ctx, req.ExpiresAt)
	switch {
	case !ok:
		fmt.Fprintln(p.out, "\n  no answer: denied")
		return false, nil
	case !isYes(line):
		fmt.Fprintln(p.out, "  denied")
		return false, nil
	}
	fmt.Fprintln(p.out, "  approved")
	return true, nil
}

// drain drops the lines typed while no question was asked.
func (p *Prompt) drain() {
	for {
		select {
		case _, ok := <-p.lines:
			if !ok {
				return
			}
		default:
			return
		}
	}
}

// answer waits for the next line until ctx ends or the confirmation
// expires; ok is false when none came.
func (p *Prompt) answer(ctx context.Context, expires time.Time) (line string, ok bool) {
	wait := time.Until(expires)
	if expires.IsZero() {
		wait = time.Hour
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case line, ok = <-p.lines:
		return line, ok
	case <-t.C:
	case <-ctx.Done():
	}
	return "", false
}

// Question is the text of a confirmation as Prompt shows it, ending with
// the "Approve? [y/N] " prompt. name starts the first line.
func Question(name string, ctx context.Context, req provider.ConfirmRequest) string {
	var b strings.Builder
	t, a := req.Tool, req.Tool.Annotations
	fmt.Fprintf(&b, "\n%s: %s asks to run %s\n", name, who(ctx, req.Caller), req.Tool.Name)
	fmt.Fprintf(&b, "  object   %s\n", cliout.Printable(firstNonEmpty(t.Title, t.Name)))
	if t.Description != "" {
		fmt.Fprintf(&b, "           %s\n", cliout.Printable(truncate(t.Description, 2*MaxShownValue)))
	}
	fmt.Fprintf(&b, "  action   %s, risk %s%s\n", a.Effect, a.Risk, openWorld(a))
	writeArgs(&b, req.Args)
	for _, c := range consequences(a) {
		fmt.Fprintf(&b, "  %s\n", c)
	}
	fmt.Fprintf(&b, "  request  %s\n", cliout.Printable(req.RequestID))
	b.WriteString("Approve? [y/N] ")
	return b.String()
}

// who names the caller: its UID, its packages, and the process ID when the
// Unix-socket binding captured it.
func who(ctx context.Context, c provider.Caller) string {
	s := fmt.Sprintf("uid %d", c.UID)
	for _, p := range c.Packages {
		s += " " + cliout.Printable(p.Name)
	}
	if peer, ok := unixsock.PeerFromContext(ctx); ok {
		s += fmt.Sprintf(" (pid %d)", peer.PID)
	}
	return s
}

func openWorld(a provider.Annotations) string {
	if a.OpenWorld {
		return ", reaches outside this app"
	}
	return ""
}

// consequences are the lines that say what cannot be taken back, from
// the tool's annotations.
func consequences(a provider.Annotations) []string {
	var out []string
	if a.Destructive {
		out = append(out, "IRREVERSIBLE: this tool is destructive; what it removes or overwrites cannot be restored")
	}
	if a.Effect == provider.EffectTransaction {
		out = append(out, "IRREVERSIBLE: this is a transaction; once committed it cannot be taken back")
	}
	return out
}

// writeArgs lists the top-level arguments, sorted by name, each value as
// compact JSON cut to MaxShownValue; arguments that are not an object are
// shown whole, cut.
func writeArgs(b *strings.Builder, raw json.RawMessage) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		fmt.Fprintf(b, "  args     %s\n", cliout.Printable(truncate(string(raw), MaxShownValue)))
		return
	}
	if len(obj) == 0 {
		b.WriteString("  args     (none)\n")
		return
	}
	names := make([]string, 0, len(obj))
	for k := range obj {
		names = append(names, k)
	}
	slices.Sort(names)
	label := "args"
	for i, k := range names {
		if i == MaxShownArgs {
			fmt.Fprintf(b, "           … and %d more\n", len(names)-MaxShownArgs)
			break
		}
		fmt.Fprintf(b, "  %-8s %s: %s\n", label, cliout.Printable(truncate(k, 64)), cliout.Printable(truncate(compact(obj[k]), MaxShownValue)))
		label = ""
	}
}

func compact(raw json.RawMessage) string {
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return string(raw)
	}
	return buf.String()
}

// truncate cuts s to at most n bytes on a rune boundary, marking the cut.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !isRuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func isRuneStart(c byte) bool { return c&0xC0 != 0x80 }

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// isYes reports whether line approves: y or yes, in any case.
func isYes(line string) bool {
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true
	}
	return false
}
