package main

import (
	"bufio"
	"context"
	"fmt"
	"github.com/cetpgen/cetpgen/runtime/cliout"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cetpgen/cetpgen/runtime/binding/unixsock"
	"github.com/cetpgen/cetpgen/runtime/provider"
)

// prompt is the terminal confirmation UI of alertsd: it shows the concrete
// action (tool, caller, request, exact arguments) and waits for the user
// to answer y or N on the Provider's own terminal. One question is asked at
// a time; one that is not answered before the confirmation expires, or
// whose launch was abandoned, counts as denied.
type prompt struct {
	mu    sync.Mutex // one question at a time
	out   io.Writer
	lines chan string // the lines read from the terminal
}

// newPrompt returns a prompt that asks on out and reads answers from in.
func newPrompt(in io.Reader, out io.Writer) *prompt {
	p := &prompt{out: out, lines: make(chan string)}
	go p.read(in)
	return p
}

// read sends every line of in to p.lines; it ends with in.
func (p *prompt) read(in io.Reader) {
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		p.lines <- sc.Text()
	}
	close(p.lines)
}

// Confirm implements provider.Confirmer.
func (p *prompt) Confirm(ctx context.Context, req provider.ConfirmRequest) (bool, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.drain()
	fmt.Fprint(p.out, question(ctx, req))
	line, ok := p.answer(ctx, req.ExpiresAt)
	if !ok {
		fmt.Fprintln(p.out, "\n  no answer: denied")
		return false, nil
	}
	if !isYes(line) {
		fmt.Fprintln(p.out, "  denied")
		return false, nil
	}
	fmt.Fprintln(p.out, "  approved")
	return true, nil
}

// drain drops lines typed while no question was asked, so that a stray
// "y" never answers the next one.
func (p *prompt) drain() {
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
func (p *prompt) answer(ctx context.Context, expires time.Time) (line string, ok bool) {
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

// question is the text of a confirmation: what will happen, for whom, and
// the exact arguments, with anything unprintable escaped so that the
// caller's text cannot drive the terminal.
func question(ctx context.Context, req provider.ConfirmRequest) string {
	who := "uid " + strconv.Itoa(req.Caller.UID)
	if peer, ok := unixsock.PeerFromContext(ctx); ok {
		who += fmt.Sprintf(" (pid %d)", peer.PID)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\nalertsd: %s asks to run %s (%s, effect %s, risk %s)\n", who, req.Tool.Name,
		cliout.Printable(req.Tool.Title), req.Tool.Annotations.Effect, req.Tool.Annotations.Risk)
	fmt.Fprintf(&b, "  request %s\n  args    %s\n", cliout.Printable(req.RequestID), cliout.Printable(string(req.Args)))
	b.WriteString("Approve? [y/N] ")
	return b.String()
}

// isYes reports whether line approves: y or yes, in any case.
func isYes(line string) bool {
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true
	}
	return false
}
