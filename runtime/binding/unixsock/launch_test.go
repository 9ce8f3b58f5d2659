package unixsock_test

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/provider/providertest"
)

// TestLaunchResolution proves the resolution flow of §4.3 over the
// socket: execute_tool answers USER_ACTION_REQUIRED with a resolution,
// the Consumer launches it through the binding, the Provider's UI sees the
// kernel's UID and approves, and the same request with the resume token
// succeeds. Launching it again is CONFLICT, an unknown resolution goes to
// the Authorizer (PERMISSION_DENIED), both as *protocol.Error.
func TestLaunchResolution(t *testing.T) {
	ui := &providertest.Confirmer{Approve: func(provider.ConfirmRequest) bool { return true }}
	tr, token := negotiated(t, newProvider(t, ui))
	ctx := context.Background()
	req := execute(token, "wipe", `{"all":true}`)
	resp, _ := tr.Call(ctx, protocol.MethodExecuteTool, req)
	perr, err := protocol.ParseError(resp)
	if err != nil || perr.Code != protocol.CodeUserActionRequired || perr.Resolution == nil {
		t.Fatalf("first answer %v", resp)
	}
	if err := tr.Launch(ctx, perr.Resolution); err != nil {
		t.Fatal(err)
	}
	if r := ui.Requests(); len(r) != 1 || r[0].Caller.UID != os.Getuid() {
		t.Fatalf("UI saw %+v", r)
	}
	req[protocol.KeyResumeToken] = protocol.String(perr.ResumeToken)
	resp, _ = tr.Call(ctx, protocol.MethodExecuteTool, req)
	if s, _, _ := resp.String(protocol.KeyStatus); s != protocol.StatusSuccess {
		t.Fatalf("resumed answer %v", resp)
	}
	wantLaunchError(t, tr.Launch(ctx, perr.Resolution), protocol.CodeConflict)
	wantLaunchError(t, tr.Launch(ctx, &protocol.Resolution{ID: "unknown"}), protocol.CodePermissionDenied)
}

func wantLaunchError(t *testing.T, err error, code protocol.Code) {
	t.Helper()
	var perr *protocol.Error
	if !errors.As(err, &perr) || perr.Code != code {
		t.Fatalf("launch: %v, want %s", err, code)
	}
}
