package session

import (
	"context"
	"errors"
	"fmt"

	"github.com/mur-go/mur/agent"
	"github.com/mur-go/mur/launch"
	"github.com/mur-go/mur/manifest"
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

// runAgent runs the staged agent capsule's task through package agent, its
// driver and tools built by launch with the grants a script capsule's
// tools get. A failed attempt is a failed run: its reason is in
// out/result.txt and in the error.
func runAgent(ctx context.Context, lo launch.Options) error {
	at, err := launch.NewAgentTools(lo)
	if err != nil {
		return err
	}
	_, err = agent.Run(ctx, agent.Options{Session: lo.Session, Driver: at.Driver, Tools: at.Tools,
		Allowlist: at.Allowlist, Shell: at.Shell, Log: lo.Log})
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
