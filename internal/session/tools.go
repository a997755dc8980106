package session

import (
	"context"
	"errors"
	"log/slog"

	"github.com/mur-go/mur/internal/agent"
	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/launch"
	"github.com/mur-go/mur/internal/remote/mcp"
	"github.com/mur-go/mur/internal/stage"
)

// Serving is what a server of a session's tools is handed.
type Serving struct {
	// Staged is the session; Tools its tools, each call through the
	// loop's dispatch.
	Staged *stage.Staged
	Tools  *agent.Served
	// Log is the session's, which keeps its secrets out.
	Log *slog.Logger
}

// toolServer offers a staged capsule's tools to callers outside it until
// it returns (agent.ServeTools).
type toolServer func(ctx context.Context, s Serving) error

// ServeTools loads and stages the capsule at opts.ManifestPath as Run
// does, script or agent capsule, and serves its tools through serve
// instead of running it: each call through the agent loop's dispatch,
// under the capsule's grants and containment, in a session directory
// with its trace (agent.ServeTools), until serve returns. secret is the
// server's token, kept out of everything the session writes ("" for
// none). opts.Task and opts.SystemPrompt must be unset, and opts.Serve
// is not read: nothing runs the capsule's model.
func ServeTools(ctx context.Context, opts Options, secret string, serve func(context.Context, Serving) error) (Result, error) {
	if opts.Task != "" || opts.SystemPrompt != nil {
		return Result{Status: StatusFailed, Step: StepPrepare}, diag.Mark(diag.New(launch.CodeIO,
			"a session serving its tools runs no task and no model: it takes no task or system prompt"), ErrOption)
	}
	return runSession(ctx, opts, secret, serve)
}

// serveTools is the staged capsule's tools served (see ServeTools): an
// agent capsule's built as for its run (the driver too, which the hooks'
// run-inference may call), a script capsule's as its tools are.
func serveTools(ctx context.Context, sess *stage.Staged, lo launch.Options, o Options, serve toolServer) error {
	var ao agent.Options
	var drv hookDriver
	var err error
	if sess.Capsule.IsAgent() {
		var servers *mcp.Servers
		ao, drv, servers, err = sessionTools(lo)
		if err == nil && servers != nil {
			// The capsule's MCP servers' tools are among those served.
			if err = servers.Start(ctx); err == nil {
				defer servers.Close()
				ao.MCP = servers
			}
		}
	} else {
		var t *launch.AgentTools
		if t, err = launch.NewServedTools(lo); err == nil {
			ao = agent.Options{Tools: t.Tools, Allowlist: t.Allowlist, Shell: t.Shell}
		}
	}
	if err != nil {
		return err
	}
	ao, rt, err := loopOptions(ctx, sess, lo, o, ao, drv)
	if err != nil {
		return err
	}
	defer rt.Close(context.WithoutCancel(ctx)) // agent.Run closes it too; this covers an early return
	// Staging and compiling left garbage and mapped pages a server that
	// waits for calls should not sit on (as an A2A session's does).
	releaseMemory(lo.Engine, lo.Log)
	err = agent.ServeTools(ctx, ao, func(ctx context.Context, s *agent.Served) error {
		return serve(ctx, Serving{Staged: sess, Tools: s, Log: lo.Log})
	})
	var d *diag.Error
	if agent.KindOf(err) == 0 || !errors.As(err, &d) {
		return err
	}
	if errors.Is(err, agent.KindCancelled) {
		return diag.Mark(err, launch.ErrCancelled)
	}
	return diag.Wrap(d.Code, err, "serving the capsule's tools failed: %s", d.Msg).
		WithHint("trace.jsonl in the session directory records the calls served until then")
}
