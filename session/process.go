package session

import (
	"context"
	"errors"

	"github.com/mur-go/mur/agent"
	"github.com/mur-go/mur/launch"
)

// runProcess runs a staged transport: process capsule's task through its
// agent CLI (agent.RunProcess), its tools and the CLI's start prepared by
// launch.NewProcessTools. A failed attempt is a failed run, as in
// runAgent; the trace records are discarded until the loop's trace.jsonl
// writer takes them.
func runProcess(ctx context.Context, lo launch.Options) error {
	pt, err := launch.NewProcessTools(lo)
	if err != nil {
		return err
	}
	_, err = agent.RunProcess(ctx, agent.Options{Session: lo.Session, Tools: pt.Tools, Allowlist: pt.Allowlist,
		Shell: pt.Shell, Log: lo.Log}, agent.ProcessOptions{Env: pt.Env, Sandbox: pt.Sandbox})
	var ae *agent.Error
	if !errors.As(err, &ae) {
		return err
	}
	status, hint := launch.StatusFailed, "out/result.txt in the session directory records the same error"
	if ae.Kind == agent.KindCancelled {
		status, hint = launch.StatusCancelled, "the session directory keeps what the agent did before it was stopped"
	}
	return &launch.Error{Code: ae.Code, Status: status, Msg: "agent task failed: " + ae.Msg, Hint: hint, Err: ae}
}
