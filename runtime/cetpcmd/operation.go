package cetpcmd

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/cetpgen/cetpgen/runtime/cliout"
	"time"

	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/spf13/cobra"
)

// defaultPoll is how often --wait asks for the state of an operation.
const defaultPoll = 250 * time.Millisecond

// stateCancellationRequested is the answer of cancel_operation (§4.4).
const stateCancellationRequested = "cancellation_requested"

// operationCmd is `cetp operation`.
func (r *runner) operationCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "operation",
		Short: "Query or cancel a background operation of an earlier call",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(
		r.opCmd("get", "Print the state of an operation: state, progress, result or error", r.opGet),
		r.opCmd("cancel", "Ask the Provider to cancel an operation (it ends cancelled only if it stopped in time)", r.opCancel))
	return cmd
}

// opFunc runs one operation subcommand on an open session.
type opFunc func(ctx context.Context, cmd *cobra.Command, s *session, op *consumer.Operation) error

// opCmd builds an operation subcommand: OP_ID, --request-id, --tool,
// --wait. The tool is needed because a result is accepted only once it is
// checked against the tool's output_schema (§4.2, §7.3), and a
// get_operation answer does not name its tool.
func (r *runner) opCmd(use, short string, run opFunc) *cobra.Command {
	cmd := &cobra.Command{
		Use:   use + " --request-id R --tool T OP_ID",
		Short: short,
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return r.runOp(cmd, args[0], run)
		},
	}
	cmd.Flags().String("request-id", "", "the request_id of the call that created the operation")
	cmd.Flags().String("tool", "", "the tool of the call that created the operation (--async prints it), whose output_schema checks the result")
	cmd.Flags().Bool("wait", false, "then wait until the operation ends and print its final state")
	cmd.MarkFlagRequired("request-id")
	cmd.MarkFlagRequired("tool")
	return cmd
}

// runOp opens a session that negotiates the operation capabilities and
// runs the subcommand on the operation named by the command line.
func (r *runner) runOp(cmd *cobra.Command, id string, run opFunc) error {
	rid, _ := cmd.Flags().GetString("request-id")
	if !consumer.IsRequestID(rid) {
		return usagef("--request-id %q is not a UUID", rid)
	}
	tool, _ := cmd.Flags().GetString("tool")
	ctx, cancel := r.context(cmd)
	defer cancel()
	s, err := r.open(ctx, cmd, consumer.Options{})
	if err != nil {
		return err
	}
	defer s.Close()
	return run(ctx, cmd, s, &consumer.Operation{ID: id, RequestID: rid, Tool: tool})
}

// opGet prints the state of op, its final state with --wait.
func (r *runner) opGet(ctx context.Context, cmd *cobra.Command, s *session, op *consumer.Operation) error {
	wait, _ := cmd.Flags().GetBool("wait")
	st, err := r.state(ctx, s, op, wait)
	if err != nil {
		return err
	}
	return printValue(cmd.OutOrStdout(), stateOf(st))
}

// opCancel asks to cancel op and prints cancellation_requested, or with
// --wait the state the operation ended in: cancelled when it stopped in
// time, succeeded or failed when it had already finished its work.
func (r *runner) opCancel(ctx context.Context, cmd *cobra.Command, s *session, op *consumer.Operation) error {
	if err := s.c.CancelOperation(ctx, op); err != nil {
		return cliout.Exchange("cancel_operation "+op.ID, err)
	}
	if wait, _ := cmd.Flags().GetBool("wait"); !wait {
		return printValue(cmd.OutOrStdout(), opState{OperationID: op.ID, State: stateCancellationRequested})
	}
	st, err := r.state(ctx, s, op, true)
	if err != nil {
		return err
	}
	return printValue(cmd.OutOrStdout(), stateOf(st))
}

// state asks for the state of op, again every poll interval until it is
// terminal when wait is set.
func (r *runner) state(ctx context.Context, s *session, op *consumer.Operation, wait bool) (*consumer.OperationState, error) {
	for {
		st, err := s.c.GetOperation(ctx, op)
		if err != nil {
			return nil, cliout.Exchange("get_operation "+op.ID, err)
		}
		if !wait || st.Terminal() {
			return st, nil
		}
		if err := cliout.Sleep(ctx, pollInterval(st)); err != nil {
			return nil, &cliout.TransportError{Err: fmt.Errorf("wait for operation %s: %w", op.ID, err)}
		}
	}
}

// pollInterval is the operation's poll_after, else defaultPoll.
func pollInterval(st *consumer.OperationState) time.Duration {
	if st.PollAfter > 0 {
		return st.PollAfter
	}
	return defaultPoll
}

// opState is what `cetp operation` prints: the get_operation answer of
// §4.4, with the error in the form of cetp's own error bodies.
type opState struct {
	OperationID string            `json:"operation_id"`
	State       string            `json:"state"`
	Progress    *progressOut      `json:"progress,omitempty"`
	Result      json.RawMessage   `json:"result,omitempty"`
	Error       *cliout.ErrorBody `json:"error,omitempty"`
}

// progressOut is the progress of an operation.
type progressOut struct {
	Current int64  `json:"current"`
	Total   int64  `json:"total,omitempty"`
	Message string `json:"message,omitempty"`
}

// stateOf converts the client's operation state for printing.
func stateOf(st *consumer.OperationState) opState {
	out := opState{OperationID: st.ID, State: st.State, Result: jsonOrNil(st.Result)}
	if p := st.Progress; p != nil {
		out.Progress = &progressOut{Current: p.Current, Total: p.Total, Message: cliout.Printable(p.Message)}
	}
	if st.Err != nil {
		b := cliout.ProviderBody(st.Err)
		out.Error = &b
	}
	return out
}
