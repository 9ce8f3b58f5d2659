package cetpcmd

import (
	"context"
	"strings"
	"testing"

	"github.com/cetpgen/cetpgen/runtime/cliout"
)

// TestProviderIDRefusesAnotherProvider: with --provider-id, cetp sends
// nothing past negotiate to a Provider with another provider_id.
func TestProviderIDRefusesAnotherProvider(t *testing.T) {
	env, out, errb := newEnv(t, nil, 0)
	code := Run(context.Background(), env, []string{"call", "--socket", "s", "--provider-id", "com.example.bank", "echo", `{"pin":"1234"}`})
	if e := cliError(t, errb.String()); code != cliout.ExitTransport || e.Code != cliout.CodeWrongProvider || out.Len() != 0 ||
		!strings.Contains(e.Message, `"com.example.test"`) {
		t.Fatalf("exit %d, error %+v, stdout %q", code, e, out)
	}
	errb.Reset()
	if code := Run(context.Background(), env, []string{"call", "--socket", "s", "--provider-id", "com.example.test", "echo", `{}`}); code != 0 {
		t.Fatalf("the right Provider: exit %d, %s", code, errb)
	}
}

// TestRequestIDMustBeAUUID: a --request-id that is not a UUID is a usage
// error, before anything is sent.
func TestRequestIDMustBeAUUID(t *testing.T) {
	env, _, errb := newEnv(t, nil, 0)
	code := Run(context.Background(), env, []string{"call", "--socket", "s", "--request-id", "order-42", "echo", `{}`})
	if e := cliError(t, errb.String()); code != cliout.ExitUsage || !strings.Contains(e.Message, "not a UUID") {
		t.Fatalf("exit %d, error %+v", code, e)
	}
	errb.Reset()
	code = Run(context.Background(), env, []string{"operation", "get", "--socket", "s", "--request-id", "r-none", "--tool", "echo", "op_1"})
	if e := cliError(t, errb.String()); code != cliout.ExitUsage || !strings.Contains(e.Message, "not a UUID") {
		t.Fatalf("operation get: exit %d, error %+v", code, e)
	}
}
