package agent

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/mur-go/mur/stage"
	"github.com/mur-go/mur/tools"
)

// Options describe one task attempt.
type Options struct {
	// Session is the staged agent capsule.
	Session *stage.Session
	// Driver is the inference driver; Tools the staged tools by name and
	// Allowlist the manifest's tool artifacts (see launch.NewAgentTools).
	Driver    tools.Tool
	Tools     tools.Tools
	Allowlist []string
	// Log receives the loop's diagnostics; nil discards them.
	Log *slog.Logger
}

// Outcome is how a finished attempt ended.
type Outcome struct {
	// Text is the model's final text, as written to out/result.txt.
	Text string
	// Turns is the number of driver calls made.
	Turns int
}

// Run runs the task in the accessible workdir's task.md through the
// driver until the model ends its turn. Every outcome, success or failure,
// is written to out/result.txt (failures as "error: <msg>"); a failure is
// an *Error, so a failed attempt can never pass for a finished one.
func Run(ctx context.Context, opts Options) (Outcome, error) {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	out, err := attempt(ctx, opts)
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			e = failure(KindIO, err, "%v", err)
		}
		if werr := opts.Session.WriteResult("error: " + e.Msg); werr != nil {
			opts.Log.Warn("recording the failure in out/result.txt", "err", werr)
		}
		return out, e
	}
	if err := opts.Session.WriteResult(out.Text); err != nil {
		return out, failure(KindIO, err, "writing out/result.txt: %v", err)
	}
	return out, nil
}

func attempt(ctx context.Context, o Options) (Outcome, error) {
	s := o.Session
	inf := s.Capsule.Inference
	system, err := systemPrompt(s)
	if err != nil {
		return Outcome{}, err
	}
	task, err := readTask(s)
	if err != nil {
		return Outcome{}, err
	}
	inv, err := inventory(s)
	if err != nil {
		return Outcome{}, failure(KindIO, err, "building the tool inventory: %v", err)
	}
	if err := logInventory(s, inv); err != nil {
		o.Log.Warn("writing the tool inventory to logs/bootstrap.log", "err", err)
	}
	req := request{Model: inf.Model, MaxTokens: inf.EffectiveMaxTokens(), System: system,
		Messages: []any{userMessage(task)}, Tools: inv}
	d := &dispatcher{session: s, tools: o.Tools, allowlist: o.Allowlist}
	var out Outcome
	for turn := range int(inf.MaxTurns) {
		if err := cancelled(ctx); err != nil {
			return out, err
		}
		out.Turns = turn + 1
		r, err := callDriver(ctx, o.Driver, req)
		if err != nil {
			return out, err
		}
		o.Log.Debug("inference turn", "turn", turn, "stop_reason", r.StopReason)
		switch r.StopReason {
		case stopError:
			return out, failure(KindModelError, nil, "%s", cmp.Or(r.Error, "driver returned error"))
		case stopEndTurn, stopMaxTokens:
			out.Text = r.text()
			return out, nil
		case stopToolCall:
			calls, err := r.toolCalls()
			if err != nil {
				return out, failure(KindResponse, err, "%v", err)
			}
			if len(calls) == 0 {
				return out, failure(KindResponse, nil, "response stop_reason=tool_call but no tool_call blocks were present")
			}
			results := make([]any, 0, len(calls))
			for _, c := range calls {
				text, isErr := d.call(ctx, c)
				o.Log.Debug("tool call", "tool", c.Name, "is_error", isErr)
				results = append(results, toolMessage(c.ID, isErr, text))
				if err := cancelled(ctx); err != nil {
					return out, err
				}
			}
			req.Messages = append(append(req.Messages, assistantMessage(r.Content)), results...)
		default:
			return out, failure(KindResponse, nil, "unsupported stop_reason '%s'", r.StopReason)
		}
	}
	return out, failure(KindMaxTurns, nil, "inference loop exceeded %d turns", inf.MaxTurns)
}

// callDriver sends one request and parses the answer (session.md §3.2
// steps 5–8).
func callDriver(ctx context.Context, driver tools.Tool, req request) (response, error) {
	data, err := req.encode()
	if err != nil {
		return response{}, failure(KindIO, err, "encoding the driver request: %v", err)
	}
	res, err := driver.Invoke(ctx, tools.ToolInput{Data: &data})
	if err != nil {
		if cerr := cancelled(ctx); cerr != nil {
			return response{}, cerr
		}
		return response{}, failure(KindDriver, err, "driver invocation failed: %v", err)
	}
	if res.Status != tools.StatusPassed {
		msg := "driver returned error"
		if res.Data != nil {
			msg = *res.Data
		} else if res.Summary != nil {
			msg = *res.Summary
		}
		if credentialRejected(res) {
			return response{}, &Error{Kind: KindCredentialRejected, Code: CodeCredentialRejected,
				Msg: "the provider rejected the credential (check inference.api_key; not retried): " + msg}
		}
		return response{}, failure(KindDriver, nil, "%s", msg)
	}
	raw := res.Data
	if raw == nil {
		raw = res.Summary
	}
	if raw == nil {
		return response{}, failure(KindResponse, nil, "driver returned no data")
	}
	r, err := parseResponse(*raw)
	if err != nil {
		return response{}, failure(KindResponse, err, "%v", err)
	}
	return r, nil
}

// readTask is the task text: task.md in the accessible workdir.
func readTask(s *stage.Session) (string, error) {
	path := filepath.Join(s.AccessibleDir, "task.md")
	b, err := os.ReadFile(path)
	if err != nil {
		return "", &Error{Kind: KindTask, Code: CodeRun, Err: err,
			Msg: fmt.Sprintf("no task for the agent: %v; pass one with mur run --task TEXT|FILE", err)}
	}
	return string(b), nil
}

// cancelled is a KindCancelled error once ctx is done.
func cancelled(ctx context.Context) error {
	if ctx.Err() == nil {
		return nil
	}
	return failure(KindCancelled, context.Cause(ctx), "session cancelled (%v)", context.Cause(ctx))
}
