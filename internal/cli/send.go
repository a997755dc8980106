package cli

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/mur-go/mur/internal/remote/a2a"
)

const sendLong = `Send one message to an A2A agent (a capsule served by "mur run", or any
A2A server) and print its answer, streamed as it arrives.

TARGET is the agent: a URL for any A2A server, or a capsule this user
serves named as below. mur reads the agent card and speaks A2A 1.0 when it is offered (JSON-RPC, else
HTTP+JSON), else 0.3; a 1.0 request the agent answers as a 0.3-only server
does (method not found) is sent again as 0.3. https peers are verified
against the system's roots.

Every request carries a W3C traceparent: a new trace per send, or a span
in the caller's trace when TRACEPARENT holds one.

The answer goes to stdout. As soon as the agent names the task, mur
prints "task: tsk_…" and "context: ctx_…" on stderr: "mur cancel tsk_…"
cancels it, "mur send --context ctx_… TARGET TEXT" continues the
conversation (threaded capsules keep its history).

When the agent asks for input, mur prints the question and the command
that answers it (--task), and exits 1. A task that fails, is rejected or
canceled also exits 1.

` + targetHelp + `

Environment:
  MURMUR_A2A_TOKEN  bearer token to send when --token is not given
  TRACEPARENT       the caller's W3C trace context, to send within`

func newSendCommand(a *app) *cobra.Command {
	var token, task, contextID string
	cmd := &cobra.Command{
		Use:   "send TARGET TEXT",
		Short: "Send a message to an A2A agent and stream its answer",
		Long:  sendLong,
		Args:  exactArgs("TARGET", "TEXT"),
		RunE: func(cmd *cobra.Command, args []string) error {
			t, err := resolveTarget(cmd, args[0])
			if err != nil {
				return err
			}
			o := a2a.OneShot{Token: t.token(token), TaskID: task, ContextID: contextID, Trace: a2a.TraceFromEnv(os.Getenv),
				OnText: func(s string) { fmt.Fprint(a.stdout, s) },
				OnTask: func(id, ctx string) { fmt.Fprintf(a.stderr, "task: %s\ncontext: %s\n", id, ctx) }}
			r, err := o.Send(cmd.Context(), t.url, args[1])
			if r.Streamed {
				fmt.Fprintln(a.stdout)
			}
			switch {
			case err == nil:
				if !r.Streamed {
					fmt.Fprintln(a.stdout, r.Text)
				}
				return nil
			case r.State == "input-required":
				fmt.Fprintf(a.stderr, "the agent asks: %s\nanswer with: mur send --task %s %s TEXT\n", r.Text, r.TaskID, t.name())
				return &reportedError{err}
			case errors.Is(err, a2a.ErrNotCompleted):
				return fmt.Errorf("task %s ended %s: %s", r.TaskID, r.State, r.Text)
			}
			return fmt.Errorf("sending to %s: %w", t.name(), err)
		},
	}
	tokenFlag(cmd, &token)
	cmd.Flags().StringVar(&task, "task", "", "answer this task, which asked for input")
	cmd.Flags().StringVar(&contextID, "context", "", "send within this conversation (a context id an earlier send printed)")
	return cmd
}
