package session

import (
	"context"
	"errors"
	"fmt"

	"github.com/mur-go/mur/agent"
	"github.com/mur-go/mur/hooks"
	"github.com/mur-go/mur/inference"
	"github.com/mur-go/mur/launch"
	"github.com/mur-go/mur/manifest"
	"github.com/mur-go/mur/tokens"
)

// checkAgent refuses, before anything is staged, an agent capsule mur-go
// cannot run: only the WASM-driver transport exists, and its driver must
// be a declared runtime: driver artifact.
func checkAgent(c *manifest.Capsule) error {
	inf := c.Inference
	if inf.Transport != "http" || inf.Driver == nil {
		return &launch.Error{Code: launch.CodeRun, Status: launch.StatusFailed,
			Msg:  fmt.Sprintf("not implemented yet in mur-go: inference.transport: %s; agent capsules run through a WASM driver (transport: http)", inf.Transport),
			Hint: "use transport: http with inference.driver.artifact naming a runtime: driver artifact"}
	}
	name := inf.Driver.Artifact
	if ref, ok := c.Artifact(name); !ok || ref.Runtime != manifest.RuntimeDriver {
		return &launch.Error{Code: launch.CodeRun, Status: launch.StatusFailed,
			Msg:  fmt.Sprintf("inference driver '%s' is not declared: inference.driver.artifact must name an artifacts entry with runtime: driver", name),
			Hint: fmt.Sprintf("add `- name: %s` with its version and `runtime: driver` to artifacts in murmur.yaml, then mur install", name)}
	}
	return nil
}

// runAgent runs the staged agent capsule's session through package agent,
// its driver and tools built by launch with the grants a script capsule's
// tools get. A failed task is a failed run: its reason is in
// out/result.txt and in the error.
func runAgent(ctx context.Context, lo launch.Options, o Options) error {
	at, err := launch.NewAgentTools(lo)
	if err != nil {
		return err
	}
	inf := lo.Session.Capsule.Inference
	// One policy and one meter for the loop's turns and the hooks'
	// run-inference: the spend ceiling is the session's, whoever spends.
	policy, meter := inference.NewPolicy(inf.Retry), inference.NewMeter(inf.MaxSessionTokens)
	rt, err := hooks.New(ctx, hooks.Options{Session: lo.Session, Driver: at.Driver, Retry: policy, Meter: meter,
		DriverName: inf.Driver.Artifact, CountTokens: tokens.New().Count,
		Getenv: lo.Getenv, Stdout: lo.Stdout, Stderr: lo.Stderr, Log: lo.Log})
	if err != nil {
		return &launch.Error{Code: launch.CodeRun, Status: launch.StatusFailed, Err: err, Msg: err.Error(),
			Hint: "logs/hook-<name>.log in the session directory has the hook's own errors"}
	}
	defer rt.Close(context.WithoutCancel(ctx)) // RunSession closes it too; this covers an early return
	so := agent.SessionOptions{Session: lo.Session, Driver: at.Driver, Tools: at.Tools,
		Allowlist: at.Allowlist, Shell: at.Shell, Hooks: rt, Tokens: tokens.New(), SystemPrompt: o.SystemPrompt, Log: lo.Log,
		Retry: &policy, Meter: meter}
	err = serve(ctx, lo, o, func(ctx context.Context, src agent.TaskSource) error {
		so.Tasks = src
		_, err := agent.RunSession(ctx, so)
		return err
	})
	var ae *agent.Error
	if !errors.As(err, &ae) {
		return err
	}
	status, hint := launch.StatusFailed, "out/result.txt and trace.jsonl in the session directory record what happened"
	if ae.Kind == agent.KindCancelled {
		status, hint = launch.StatusCancelled, "the session directory keeps what the agent did before it was stopped"
	}
	return &launch.Error{Code: ae.Code, Status: status, Msg: "agent task failed: " + ae.Msg, Hint: hint, Err: ae}
}

// withSystemPrompt is the capsule as `mur run --system-prompt` makes it:
// the manifest's three prompt fields cleared (session.md §3.3), so
// staging writes MURMUR.md and the loop lists tools without a bound skill.
// The parsed manifest itself is left alone.
func withSystemPrompt(f *manifest.File, prompt *string) *manifest.File {
	if prompt == nil || f.Capsule == nil || f.Capsule.Inference == nil {
		return f
	}
	c, inf, g := *f.Capsule, *f.Capsule.Inference, *f
	inf.SystemPrompt, inf.SystemPromptFile, inf.SystemPromptArtifact = "", "", ""
	c.Inference = &inf
	g.Capsule = &c
	return &g
}
