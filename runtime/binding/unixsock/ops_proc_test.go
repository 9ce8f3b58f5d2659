package unixsock_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/cetpgen/cetpgen/runtime/binding/unixsock"
	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// Environment of the "opspy" child: the operation it tries to reach.
const (
	envOpID      = "CETP_UNIXSOCK_OP"
	envOpReqID   = "CETP_UNIXSOCK_OP_REQUEST"
	envResume    = "CETP_UNIXSOCK_RESUME"
	envResumeReq = "CETP_UNIXSOCK_RESUME_REQUEST"
	resumeArgs   = `{"all":true}`
)

// childOpSpy opens its own session and tries to read and cancel another
// caller's operation; it prints the error code of each attempt.
func childOpSpy(path, opID, requestID string) int {
	tr, err := unixsock.Dial(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer tr.Close()
	c := consumer.New(tr, consumer.Options{})
	op := &consumer.Operation{ID: opID, RequestID: requestID, Tool: "slow"}
	_, getErr := c.GetOperation(context.Background(), op)
	cancelErr := c.CancelOperation(context.Background(), op)
	_, resumeErr := c.ResumeTool(context.Background(), os.Getenv(envResumeReq), "wipe", json.RawMessage(resumeArgs), os.Getenv(envResume))
	fmt.Printf("get=%s cancel=%s resume=%s\n", consumer.CodeOf(getErr), consumer.CodeOf(cancelErr), consumer.CodeOf(resumeErr))
	return 0
}

// TestOperationsTwoProcesses runs §4.4 and §4.5 over the real socket with
// the Provider in a child process: an operation followed to its result, one
// cancelled while it runs, a file result verified and its descriptors
// closed on both sides, and a second UID that can neither read nor cancel
// the first caller's operation.
func TestOperationsTwoProcesses(t *testing.T) {
	dir := sharedDir(t)
	path := filepath.Join(dir, "cetp.sock")
	startProvider(t, path)
	tr := dial(t, path)
	c := consumer.New(tr, consumer.Options{})
	ctx := context.Background()
	v, err := c.ExecuteTool(ctx, "slow", json.RawMessage(`{"ms":50}`))
	if err != nil || string(v) != `{"slept":50}` {
		t.Fatalf("followed operation = %s, %v", v, err)
	}
	_, op, err := c.StartTool(ctx, consumer.NewRequestID(), "slow", json.RawMessage(`{"ms":60000}`))
	if err != nil || op == nil {
		t.Fatalf("StartTool = %+v, %v", op, err)
	}
	t.Run("second UID", func(t *testing.T) { opSpy(t, dir, path, c, op) })
	if err := c.CancelOperation(ctx, op); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Wait(ctx, op); consumer.CodeOf(err) != protocol.CodeCancelled {
		t.Fatalf("Wait after cancel = %v", err)
	}
	t.Run("file results", func(t *testing.T) { bigOverSocket(t, tr, c) })
}

// bigOverSocket reads the big tool's file result several times and checks
// that neither process keeps a descriptor.
func bigOverSocket(t *testing.T, tr *unixsock.Transport, c *consumer.Client) {
	read := func() {
		v, err := c.ExecuteTool(context.Background(), "big", json.RawMessage(`{}`))
		if err != nil || len(v) != bigSize+len(`{"blob":""}`) || !strings.HasPrefix(string(v), `{"blob":"zzz`) {
			t.Fatalf("big = %.30s (%d bytes), %v", v, len(v), err)
		}
	}
	read()
	token := c.Session().Token
	base, childBase := restFDs(), childFDs(t, tr, token, -1)
	for range 5 {
		read()
	}
	waitFDs(t, base)
	childFDs(t, tr, token, childBase)
}

// opSpy runs the second client. As root it runs as nobody, and reading
// or cancelling the first caller's operation and replaying its resume
// token must each be INVALID_REQUEST. Without root no second UID exists,
// and the test is skipped.
func opSpy(t *testing.T, dir, path string, c *consumer.Client, op *consumer.Operation) {
	resumeID, token := pendingResume(t, c)
	exe := filepath.Join(dir, "spy.test")
	copyFile(t, mustExecutable(t), exe)
	cmd := childCmd(t, exe, "opspy", path, envOpID+"="+op.ID, envOpReqID+"="+op.RequestID,
		envResume+"="+token, envResumeReq+"="+resumeID)
	cmd.Dir = dir
	if os.Getuid() != 0 {
		t.Skip("not root: no second UID to run the client as")
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("second client: %v", err)
	}
	if want := "get=INVALID_REQUEST cancel=INVALID_REQUEST resume=INVALID_REQUEST\n"; string(out) != want {
		t.Fatalf("second client printed %q, want %q", out, want)
	}

}

// pendingResume starts the wipe tool, which needs confirmation, and
// returns its request ID and the resume token the Provider answered with.
func pendingResume(t *testing.T, c *consumer.Client) (string, string) {
	id := consumer.NewRequestID()
	_, err := c.ExecuteToolID(context.Background(), id, "wipe", json.RawMessage(resumeArgs))
	var e *consumer.Error
	if !errors.As(err, &e) || e.Code != protocol.CodeUserActionRequired || e.ResumeToken == "" {
		t.Fatalf("wipe = %v, want USER_ACTION_REQUIRED with a resume token", err)
	}
	return id, e.ResumeToken
}
