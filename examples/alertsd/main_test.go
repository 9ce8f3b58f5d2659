package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cetpgen/cetpgen/runtime/serve"
)

func TestUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"--help"}, 0},
		{[]string{"--bogus"}, 2},
		{[]string{"extra"}, 2},
		{[]string{"--work-delay", "soon"}, 2},
	} {
		var errb bytes.Buffer
		if got := serve.Run(context.Background(), server(), c.args, serve.Stdio{Err: &errb}); got != c.code {
			t.Errorf("%v: exit %d, want %d\n%s", c.args, got, c.code, errb.String())
		}
	}
}

func TestServeFailsOnABadSocketPath(t *testing.T) {
	dir := t.TempDir()
	var errb bytes.Buffer
	args := []string{"--socket", filepath.Join(dir, "missing", "a.sock"), "--db", filepath.Join(dir, "a.db")}
	if got := serve.Run(context.Background(), server(), args, serve.Stdio{Err: &errb}); got != 1 || !strings.Contains(errb.String(), "listen on") {
		t.Fatalf("exit %d\n%s", got, errb.String())
	}
}
