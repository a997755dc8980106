package capsule

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/session"
)

// Serve serves the agent capsule at opts.Manifest over A2A until ctx
// ends: Run with the capsule's lifecycle made task_acceptance: queue and
// after_task: sleep, so it runs opts.Task first when there is one, then
// every A2A message it is sent, one after another. opts.OnURL learns the
// address once the port is bound; any A2A client can then talk to it
// (opts.Token, when set, is the bearer token it must send).
//
// Serve returns when ctx ends it, with StatusCancelled and a nil error,
// or when the session fails first, with its error. A script capsule is
// not served: it is refused before anything is staged.
func Serve(ctx context.Context, opts Options) (Result, error) {
	path := manifestPath(opts.Manifest)
	// A manifest that does not load is left to the run, which reports it
	// as Run does.
	if abs, err := filepath.Abs(path); err == nil {
		f, _, err := manifest.LoadWith(abs, manifest.LoadOptions{Role: manifest.RoleCapsule, NoEnvFile: opts.NoEnvFile, Env: opts.env()})
		if err == nil && f.Capsule != nil && !f.Capsule.IsAgent() {
			return Result{Status: StatusFailed}, fmt.Errorf("%s is a script capsule; only an agent capsule (one with an inference: block) is served: run it with Run", abs)
		}
	}
	res, err := run(ctx, opts, session.ServeOptions{TaskAcceptance: "queue", AfterTask: "sleep"})
	if ctx.Err() != nil {
		res.Status = StatusCancelled
		return res, nil
	}
	return res, err
}
