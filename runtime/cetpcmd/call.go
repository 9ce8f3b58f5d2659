package cetpcmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/cetpgen/cetpgen/runtime/cliout"
	"io"

	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/spf13/cobra"
)

// maxArgsBytes bounds the arguments read from stdin.
const maxArgsBytes = 1 << 20

// callFlags are the flags of `cetp call`.
type callFlags struct {
	requestID string
	async     bool
	follow    bool
	sync      bool
}

// callCmd is `cetp call`.
func (r *runner) callCmd() *cobra.Command {
	f := &callFlags{}
	cmd := &cobra.Command{
		Use:   "call TOOL [ARGS|-]",
		Short: "Call a tool with a JSON object of arguments ('-' reads them from stdin; default {})",
		Args:  cobra.RangeArgs(1, 2),
		RunE:  func(cmd *cobra.Command, args []string) error { return r.call(cmd, f, args) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.requestID, "request-id", "", "the request_id (default: a new one); the same one retries the same execution")
	fl.BoolVar(&f.async, "async", false, "print the handle of a background operation at once instead of waiting for it")
	fl.BoolVar(&f.follow, "follow", false, "show the progress of a background operation on stderr while waiting for it")
	fl.BoolVar(&f.sync, "sync", false, "do not negotiate async_operations: the Provider runs the tool synchronously")
	cmd.MarkFlagsMutuallyExclusive("async", "follow")
	cmd.MarkFlagsMutuallyExclusive("async", "sync")
	return cmd
}

// call runs one tool call: it starts the execution (launching a
// resolution and resuming when the Provider asks for one), then prints the
// result, the operation's handle (--async), or the result once the
// operation ends.
func (r *runner) call(cmd *cobra.Command, f *callFlags, argv []string) error {
	args, err := readArgs(argv[1:], cmd.InOrStdin())
	if err != nil {
		return err
	}
	id, err := requestID(f)
	if err != nil {
		return err
	}
	ctx, cancel := r.context(cmd)
	defer cancel()
	line := newProgressLine(r.env.Err(), r.env.terminal(), f.follow)
	s, err := r.open(ctx, cmd, callOptions(f, line))
	if err != nil {
		return err
	}
	defer s.Close()
	res, op, err := s.c.StartTool(ctx, id, argv[0], args)
	switch {
	case err != nil:
		return cliout.Exchange("call "+argv[0], err)
	case op == nil:
		return printJSON(cmd.OutOrStdout(), res)
	case f.async:
		return printValue(cmd.OutOrStdout(), handleOf(op))
	}
	return r.follow(ctx, cmd, s, op, line)
}

// requestID is --request-id, which must be a UUID, else a new request ID.
func requestID(f *callFlags) (string, error) {
	switch {
	case f.requestID == "":
		return consumer.NewRequestID(), nil
	case !consumer.IsRequestID(f.requestID):
		return "", usagef("--request-id %q is not a UUID", f.requestID)
	}
	return f.requestID, nil
}

// callOptions are the Consumer options of a call: resolutions launched,
// the progress line, and every capability the client handles, except
// async_operations with --sync (the Provider then runs a sync_or_async
// tool synchronously).
func callOptions(f *callFlags, line *progressLine) consumer.Options {
	opt := consumer.Options{LaunchResolutions: true, OnProgress: line.show}
	if f.sync {
		opt.Capabilities = []string{protocol.CapLargeResults}
	}
	return opt
}

// readArgs returns the arguments of a call: the given JSON object, the one
// on stdin for "-", or {} when none is given.
func readArgs(argv []string, stdin io.Reader) (json.RawMessage, error) {
	if len(argv) == 0 {
		return json.RawMessage("{}"), nil
	}
	data := []byte(argv[0])
	if argv[0] == "-" {
		var err error
		if data, err = io.ReadAll(io.LimitReader(stdin, maxArgsBytes+1)); err != nil {
			return nil, usagef("read the arguments from stdin: %v", err)
		}
	}
	if len(data) > maxArgsBytes {
		return nil, usagef("the arguments must be one JSON object, at most %d bytes", maxArgsBytes)
	}
	if err := cliout.JSONError(data); err != nil {
		return nil, usagef("the arguments: %v", err)
	}
	if data = bytes.TrimSpace(data); data[0] != '{' {
		return nil, usagef("the arguments must be one JSON object")
	}
	return data, nil
}

// opHandle is what --async prints: enough to query or cancel the operation
// later with `cetp operation`.
type opHandle struct {
	OperationID string `json:"operation_id"`
	RequestID   string `json:"request_id"`
	Tool        string `json:"tool"`
	PollAfterMs int64  `json:"poll_after_ms"`
}

// handleOf returns the handle of op.
func handleOf(op *consumer.Operation) opHandle {
	return opHandle{OperationID: op.ID, RequestID: op.RequestID, Tool: op.Tool, PollAfterMs: op.PollAfter.Milliseconds()}
}

// follow waits for op to end, showing its progress with --follow, and
// prints its result. When the command ends first (--timeout, SIGINT) the
// client asks the Provider to cancel the operation; a note on stderr says
// how to learn how it ended.
func (r *runner) follow(ctx context.Context, cmd *cobra.Command, s *session, op *consumer.Operation, line *progressLine) error {
	line.start(op)
	res, err := s.c.Wait(ctx, op)
	line.end()
	if err != nil {
		// The command's context and the client's own per-call deadline
		// (both --timeout) can end in either order; either way the
		// operation was abandoned and the note applies.
		if ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			fmt.Fprintf(r.env.Err(), "cetp: stopped waiting; cancellation of %s was asked for. How it ended: cetp operation get --request-id %s --tool %s %s\n",
				cliout.Printable(op.ID), cliout.Printable(op.RequestID), cliout.Printable(op.Tool), cliout.Printable(op.ID))
		}
		return cliout.Exchange(fmt.Sprintf("operation %s (request %s)", op.ID, op.RequestID), err)
	}
	return printJSON(cmd.OutOrStdout(), res)
}
