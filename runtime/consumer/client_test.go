package consumer_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"testing"

	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
)

// fdTransport answers every call like its inner transport, with an open
// file descriptor added that the Consumer did not ask for.
type fdTransport struct {
	inner consumer.Transport
	files []*os.File
}

func (f *fdTransport) Call(ctx context.Context, method string, extras protocol.Bundle) (protocol.Bundle, error) {
	b, err := f.inner.Call(ctx, method, extras)
	if err != nil {
		return b, err
	}
	r, w, perr := os.Pipe()
	if perr != nil {
		return nil, perr
	}
	w.Close()
	f.files = append(f.files, r)
	b[protocol.KeyResultFD] = protocol.FileDescriptor{File: r}
	return b, nil
}

// TestUnaskedDescriptorsClosed proves a Provider cannot leak descriptors
// into the Consumer: every descriptor in a response is closed.
func TestUnaskedDescriptorsClosed(t *testing.T) {
	tr := &fdTransport{inner: consumer.InProcess{Provider: newProvider(t), Caller: provider.Caller{UID: 1000}}}
	c := consumer.New(tr, consumer.Options{})
	if _, err := c.ExecuteTool(context.Background(), "echo", json.RawMessage(`{"text":"x"}`)); err != nil {
		t.Fatal(err)
	}
	if len(tr.files) < 2 {
		t.Fatalf("transport saw %d calls, want negotiate and execute", len(tr.files))
	}
	for _, file := range tr.files {
		if _, err := file.Stat(); !errors.Is(err, os.ErrClosed) {
			t.Errorf("descriptor %s left open (%v)", file.Name(), err)
		}
	}
}
