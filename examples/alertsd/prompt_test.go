package main

import (
	"bytes"
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/provider"
)

// syncBuffer is a bytes.Buffer safe for the prompt's writes and the test's
// reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func confirmReq(args string) provider.ConfirmRequest {
	return provider.ConfirmRequest{
		Caller:    provider.Caller{UID: 1000},
		Tool:      provider.ToolInfo{Name: "delete_alert", Title: "删除价格提醒", Annotations: provider.Annotations{Effect: provider.EffectDelete, Risk: provider.RiskModerate}},
		RequestID: "r-1",
		Args:      []byte(args),
		ExpiresAt: time.Now().Add(time.Minute),
	}
}

// ask runs one confirmation with answer typed on the prompt's stdin once
// the question is shown.
func ask(t *testing.T, answer, args string) (bool, string) {
	t.Helper()
	in, typed := io.Pipe()
	defer typed.Close()
	out := &syncBuffer{}
	p := newPrompt(in, out)
	go func() {
		for !strings.Contains(out.String(), "[y/N]") {
			time.Sleep(time.Millisecond)
		}
		io.WriteString(typed, answer+"\n")
	}()
	ok, err := p.Confirm(context.Background(), confirmReq(args))
	if err != nil {
		t.Fatal(err)
	}
	return ok, out.String()
}

func TestPromptShowsTheActionAndReadsTheAnswer(t *testing.T) {
	for answer, want := range map[string]bool{"y": true, " YES ": true, "n": false, "": false, "yep": false} {
		ok, shown := ask(t, answer, `{"alert_id":"a_1"}`)
		if ok != want {
			t.Errorf("answer %q: approved %v, want %v", answer, ok, want)
		}
		for _, s := range []string{"uid 1000", "delete_alert", "删除价格提醒", "effect delete", "r-1", `{"alert_id":"a_1"}`} {
			if !strings.Contains(shown, s) {
				t.Errorf("the question does not show %q:\n%s", s, shown)
			}
		}
	}
}

func TestPromptEscapesTheCallersText(t *testing.T) {
	_, shown := ask(t, "n", "{\"alert_id\":\"\u009b31m\u202e\"}")
	if strings.ContainsAny(shown, "\u009b\u202e") || !strings.Contains(shown, `\u009b31m\u202e`) {
		t.Fatalf("control characters reached the terminal: %q", shown)
	}
}

func TestPromptDeniesWithoutAnAnswer(t *testing.T) {
	in, typed := io.Pipe()
	defer typed.Close()
	p := newPrompt(in, io.Discard)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if ok, err := p.Confirm(ctx, confirmReq("{}")); ok || err != nil {
		t.Fatalf("an abandoned question: %v, %v, want denied", ok, err)
	}
	req := confirmReq("{}")
	req.ExpiresAt = time.Now().Add(20 * time.Millisecond)
	if ok, _ := p.Confirm(context.Background(), req); ok {
		t.Fatal("an expired question was approved")
	}
	typed.Close()
	if ok, _ := p.Confirm(context.Background(), confirmReq("{}")); ok {
		t.Fatal("a closed stdin approved")
	}
}
