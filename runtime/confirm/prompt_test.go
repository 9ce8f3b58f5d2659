package confirm

import (
	"context"
	"github.com/cetpgen/cetpgen/internal/syncbuf"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/provider"
)

func deleteReq(args string) provider.ConfirmRequest {
	return provider.ConfirmRequest{
		Caller: provider.Caller{UID: 1000},
		Tool: provider.ToolInfo{Name: "delete_alert", Title: "删除价格提醒", Description: "删除一个价格提醒",
			Annotations: provider.Annotations{Effect: provider.EffectDelete, Risk: provider.RiskModerate, Destructive: true,
				Idempotent: true, Confirmation: provider.ConfirmAlways, Execution: provider.ExecSync}},
		RequestID: "r-1",
		Args:      []byte(args),
		ExpiresAt: time.Now().Add(time.Minute),
	}
}

// ask runs one confirmation of req with answer typed once the question is
// shown.
func ask(t *testing.T, answer string, req provider.ConfirmRequest) (bool, string) {
	t.Helper()
	in, typed := io.Pipe()
	defer typed.Close()
	out := &syncbuf.Buffer{}
	p := NewPrompt("alertsd", in, out)
	go func() {
		for !strings.Contains(out.String(), "[y/N]") {
			time.Sleep(time.Millisecond)
		}
		io.WriteString(typed, answer+"\n")
	}()
	ok, err := p.Confirm(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return ok, out.String()
}

func TestPromptShowsWhatSection72AsksFor(t *testing.T) {
	for answer, want := range map[string]bool{"y": true, " YES ": true, "n": false, "": false, "yep": false} {
		ok, shown := ask(t, answer, deleteReq(`{"note":"old","alert_id":"a_1"}`))
		if ok != want {
			t.Errorf("answer %q: approved %v, want %v", answer, ok, want)
		}
		for _, s := range []string{"alertsd: uid 1000 asks to run delete_alert", "object   删除价格提醒", "删除一个价格提醒",
			"action   delete, risk moderate", "args     alert_id: \"a_1\"\n", "         note: \"old\"\n",
			"IRREVERSIBLE: this tool is destructive", "request  r-1"} {
			if !strings.Contains(shown, s) {
				t.Errorf("the question does not show %q:\n%s", s, shown)
			}
		}
	}
}

func TestQuestionOfATransaction(t *testing.T) {
	req := deleteReq(`{}`)
	req.Tool.Annotations = provider.Annotations{Effect: provider.EffectTransaction, Risk: provider.RiskHigh, OpenWorld: true}
	q := Question("brokerd", context.Background(), req)
	for _, s := range []string{"transaction, risk high, reaches outside this app", "once committed it cannot be taken back", "args     (none)"} {
		if !strings.Contains(q, s) {
			t.Errorf("the question does not show %q:\n%s", s, q)
		}
	}
	if strings.Contains(q, "destructive") {
		t.Errorf("a non-destructive tool is called destructive:\n%s", q)
	}
}

func TestQuestionBoundsTheArguments(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"long":"` + strings.Repeat("长", 200) + `"`)
	for i := range 30 {
		b.WriteString(`,"k` + string(rune('a'+i%26)) + string(rune('a'+i/26)) + `":1`)
	}
	b.WriteString("}")
	q := Question("x", context.Background(), deleteReq(b.String()))
	if !strings.Contains(q, "… and 15 more") || strings.Count(q, "长") > MaxShownValue/3 {
		t.Fatalf("the arguments are not bounded:\n%s", q)
	}
}

func TestPromptEscapesTheCallersText(t *testing.T) {
	_, shown := ask(t, "n", deleteReq("{\"alert_id\":\"\u009b31m\u202e\",\"\x1b[2J\":1}"))
	if strings.ContainsAny(shown, "\u009b\u202e\x1b") || !strings.Contains(shown, `\u009b31m\u202e`) {
		t.Fatalf("control characters reached the terminal: %q", shown)
	}
}

func TestPromptDeniesWithoutAnAnswer(t *testing.T) {
	in, typed := io.Pipe()
	defer typed.Close()
	p := NewPrompt("x", in, io.Discard)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if ok, err := p.Confirm(ctx, deleteReq("{}")); ok || err != nil {
		t.Fatalf("an abandoned question: %v, %v, want denied", ok, err)
	}
	req := deleteReq("{}")
	req.ExpiresAt = time.Now().Add(20 * time.Millisecond)
	if ok, _ := p.Confirm(context.Background(), req); ok {
		t.Fatal("an expired question was approved")
	}
	typed.Close()
	if ok, _ := p.Confirm(context.Background(), deleteReq("{}")); ok {
		t.Fatal("a closed stdin approved")
	}
}
