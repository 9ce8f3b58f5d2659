package cetpcmd

import (
	"fmt"
	"github.com/cetpgen/cetpgen/runtime/cliout"
	"io"
	"sync"

	"github.com/cetpgen/cetpgen/runtime/consumer"
)

// maxProgressText bounds the progress message shown, in runes.
const maxProgressText = 80

// progressLine shows the progress of a followed operation on stderr: one
// line redrawn in place on a terminal, one line per change elsewhere.
// It shows nothing unless on.
type progressLine struct {
	mu    sync.Mutex
	w     io.Writer
	tty   bool
	on    bool
	last  string
	drawn bool // a line without its newline is on a terminal
}

// newProgressLine returns a progress line on w.
func newProgressLine(w io.Writer, tty, on bool) *progressLine {
	return &progressLine{w: w, tty: tty, on: on}
}

// start announces the operation being followed, with what finds it again.
func (l *progressLine) start(op *consumer.Operation) {
	if !l.on {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, "cetp: %s accepted as operation %s (request %s)\n", cliout.Printable(op.Tool), cliout.Printable(op.ID), cliout.Printable(op.RequestID))
}

// show draws p when it differs from what is shown; it is the client's
// OnProgress hook.
func (l *progressLine) show(op *consumer.Operation, p consumer.Progress) {
	if !l.on {
		return
	}
	text := progressText(op, p)
	l.mu.Lock()
	defer l.mu.Unlock()
	if text == l.last {
		return
	}
	l.last = text
	if l.tty {
		fmt.Fprint(l.w, "\r\x1b[K"+text)
		l.drawn = true
		return
	}
	fmt.Fprintln(l.w, text)
}

// end finishes a line left open on a terminal.
func (l *progressLine) end() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.drawn {
		fmt.Fprintln(l.w)
		l.drawn = false
	}
}

// progressText is one progress line: the tool, current/total with the
// percentage, and the Provider's message, escaped and cut.
func progressText(op *consumer.Operation, p consumer.Progress) string {
	s := fmt.Sprintf("cetp: %s %d", cliout.Printable(op.Tool), p.Current)
	if p.Total > 0 {
		s += fmt.Sprintf("/%d (%d%%)", p.Total, p.Current*100/p.Total)
	}
	msg := []rune(cliout.Printable(p.Message))
	if len(msg) > maxProgressText {
		msg = append(msg[:maxProgressText], '…')
	}
	if len(msg) > 0 {
		s += " " + string(msg)
	}
	return s
}
