package session

import (
	"context"
	"errors"

	"github.com/mur-go/mur/internal/agent"
	"github.com/mur-go/mur/internal/agent/hooks"
	"github.com/mur-go/mur/internal/agent/inference"
	"github.com/mur-go/mur/internal/agent/observe"
	"github.com/mur-go/mur/internal/agent/tokens"
	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/launch"
	"github.com/mur-go/mur/internal/remote/mcp"
	"github.com/mur-go/mur/internal/serve/a2a"
	"github.com/mur-go/mur/internal/stage"
	"github.com/mur-go/mur/internal/tools"
)

// checkAgent refuses, before anything is staged, an agent capsule whose
// transport mur-go cannot run. transport: process needs nothing more
// (manifest refuses a driver, endpoint, api_key and max_tokens beside
// it); transport: http needs a driver, which staging checks is declared
// once every artifact was looked for (Murmur's order).
func checkAgent(c *manifest.Capsule) error {
	inf := c.Inference
	switch {
	case inf.Transport == "process":
		return nil
	case inf.Transport != "http":
		return diag.New(launch.CodeRun, "not implemented in mur-go: inference.transport: %s", inf.Transport).
			WithHint("use transport: http with a WASM driver, or transport: process with an agent CLI")
	case inf.Driver == nil:
		return diag.New(launch.CodeRun, "inference.driver is missing: under transport: http the model is reached through a WASM driver").
			WithHint("set inference.driver.artifact to an artifacts entry with runtime: driver, or use transport: process with an agent CLI")
	}
	return nil
}

// runAgent runs the staged agent capsule's session through package agent,
// its driver (or, under transport: process, its agent CLI) and tools
// built by launch with the grants a script capsule's tools get, behind its
// A2A server. A failed task is a failed run: its reason is in
// out/result.txt and in the error, "agent task failed: <reason>" with the
// task failure's code.
func runAgent(ctx context.Context, sess *stage.Staged, l *listening, lo launch.Options, o Options) error {
	// Guests are built knowing the capsule URL, as in Murmur, whose
	// runtime binds before it builds them.
	lo.CapsuleURL = a2a.CapsuleURL(l.ln)
	ao, drv, servers, err := sessionTools(lo)
	if err != nil {
		return err
	}
	if servers != nil {
		if err := servers.Start(ctx); err != nil {
			return err
		}
		defer servers.Close()
		ao.MCP = servers
	}
	// The transcript hears the hooks too, and async hooks report from
	// their own goroutines: one observer, one event at a time.
	obs, closeTranscript, err := withTranscript(sess, o.Observer, lo.Log)
	if err != nil {
		return err
	}
	defer closeTranscript()
	o.Observer = observe.Serial(obs)
	ao, rt, err := loopOptions(ctx, sess, lo, o, ao, drv)
	if err != nil {
		return err
	}
	defer rt.Close(context.WithoutCancel(ctx)) // agent.Run closes it too; this covers an early return
	err = serve(ctx, sess, l, lo, o, func(ctx context.Context, src agent.TaskSource) error {
		if o.Serve.Tasks != nil {
			src = o.Serve.Tasks
		}
		ao.Tasks = newIdleSource(src, lo.Engine, lo.Log)
		_, err := agent.Run(ctx, ao)
		return err
	})
	var task *diag.Error
	if agent.KindOf(err) == 0 || !errors.As(err, &task) {
		return err
	}
	cause, hint := err, "out/result.txt and trace.jsonl in the session directory record what happened"
	if task.Hint != "" {
		hint = task.Hint
	}
	if errors.Is(err, agent.KindCancelled) {
		cause, hint = diag.Mark(err, launch.ErrCancelled), "the session directory keeps what the agent did before it was stopped"
	}
	return diag.Wrap(task.Code, cause, "agent task failed: %s", task.Msg).WithHint(hint)
}

// loopOptions are the loop's options around ao, the session's tools
// (and driver, whose name and compaction twin are drv): the hooks'
// runtime, which the caller closes, and one retry policy and one spend
// meter for the loop's turns and the hooks' run-inference alike, the
// spend ceiling being the session's whoever spends. A capsule without
// an inference block (a script capsule's served tools) has neither.
func loopOptions(ctx context.Context, sess *stage.Staged, lo launch.Options, o Options, ao agent.Options, drv hookDriver) (agent.Options, *hooks.Runtime, error) {
	inf := sess.Capsule.Inference
	if inf == nil {
		inf = &manifest.Inference{}
	}
	policy, meter := inference.NewPolicy(inf.Retry), inference.NewMeter(inf.MaxSessionTokens)
	rt, err := hooks.New(ctx, hooks.Options{Staged: sess.Hooks(), Driver: ao.Driver, Retry: policy, Meter: meter,
		DriverName: drv.name, CompactionDriver: drv.compaction, CountTokens: tokens.New().Count,
		GuestIO: hookIO(lo.GuestIO, sess.Capsule), Observer: o.Observer})
	if err != nil {
		return agent.Options{}, nil, err
	}
	ao.Staged, ao.Hooks, ao.Tokens, ao.SystemPrompt, ao.Log = sess.Loop(), rt, tokens.New(), o.SystemPrompt, lo.Log
	ao.Retry, ao.Meter = &policy, meter
	ao.WorkdirBreach = lo.Resources.Breach
	ao.Observer = o.Observer
	return ao, rt, nil
}

// hookDriver is what hooks' run-inference needs of the driver beyond the
// loop's: its name for errors ("" without one) and its compaction twin
// (nil without an inference.compaction.driver_config).
type hookDriver struct {
	name       string
	compaction tools.Tool
}

// sessionTools are the session's driver or agent CLI, its tools and
// shell, as launch builds them for the capsule's transport, and its MCP
// servers, not yet started (nil without any).
func sessionTools(lo launch.Options) (agent.Options, hookDriver, *mcp.Servers, error) {
	inf := lo.Staged.Capsule.Inference
	if inf.Transport == "process" {
		pt, err := launch.NewProcessTools(lo)
		if err != nil {
			return agent.Options{}, hookDriver{}, nil, err
		}
		return agent.Options{Tools: pt.Tools, Allowlist: pt.Allowlist, Shell: pt.Shell,
			Process: &agent.ProcessOptions{Env: pt.Env, Sandbox: pt.Sandbox}}, hookDriver{}, pt.MCP, nil
	}
	at, err := launch.NewAgentTools(lo)
	if err != nil {
		return agent.Options{}, hookDriver{}, nil, err
	}
	return agent.Options{Driver: at.Driver, Tools: at.Tools, Allowlist: at.Allowlist, Shell: at.Shell},
		hookDriver{name: inf.Driver.Artifact, compaction: at.CompactionDriver}, at.MCP, nil
}

// withSystemPrompt is the capsule as `mur run --system-prompt` makes it:
// the manifest's three prompt fields cleared (session.md §3.3), so
// staging writes MURMUR.md and the loop lists tools without a bound skill.
// The parsed manifest itself is left alone. run has refused the flag for
// a script capsule (E-IO-003) before the component is looked for, as
// Murmur does.
func withSystemPrompt(f *manifest.File, prompt *string) *manifest.File {
	if prompt == nil {
		return f
	}
	c, inf, g := *f.Capsule, *f.Capsule.Inference, *f
	inf.SystemPrompt, inf.SystemPromptFile, inf.SystemPromptArtifact = "", "", ""
	c.Inference = &inf
	g.Capsule = &c
	return &g
}

// hookIO is what hooks read of the host: the guests' view, with
// MURMUR_OTEL_ENDPOINT set to observability.otel_endpoint when the
// manifest names one (wit.md §6.7), so a hook can send spans of its own
// where the capsule's go.
func hookIO(g launch.GuestIO, c *manifest.Capsule) launch.GuestIO {
	ep := c.OtelEndpoint
	if ep == "" {
		return g
	}
	getenv := g.WithDefaults().Getenv
	g.Getenv = func(name string) (string, bool) {
		if name == "MURMUR_OTEL_ENDPOINT" {
			return ep, true
		}
		return getenv(name)
	}
	return g
}
