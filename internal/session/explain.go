package session

import (
	"context"

	"github.com/mur-go/mur/internal/launch"
	"github.com/mur-go/mur/internal/sandbox"
	"github.com/mur-go/mur/internal/stage"
)

// ExplainScope is `mur run --explain-scope`: the capsule's effective
// grants, containment and enforcement tier as a run would decide them,
// and what a --workdir holds that a later run trusts, after the manifest
// is loaded and before anything is resolved, staged or run. A refusal the run would make is in the report's shortfall; only a
// manifest that does not load or a bad --containment is an error.
func ExplainScope(ctx context.Context, opts Options) (stage.EffectiveGrants, error) {
	o := opts.withDefaults()
	f, err := load(o)
	if err != nil {
		return stage.EffectiveGrants{}, err
	}
	prober := o.Prober
	if prober == nil {
		prober = sandbox.NewProber(o.Trampoline)
	}
	g, err := stage.Explain(f.Capsule, o.Containment, o.host(ctx, prober))
	if err != nil {
		return stage.EffectiveGrants{}, err
	}
	if o.Workdir != "" {
		// A script capsule's component is trusted too; a missing one is
		// the run's error, not the report's.
		comp := ""
		if !f.Capsule.IsAgent() {
			comp, _ = launch.FindComponent(f.Dir)
		}
		if g.Workdir, err = stage.ExplainWorkdir(stage.Options{Manifest: f, Workdir: o.Workdir, CacheDir: o.CacheDir,
			ComponentPath: comp}); err != nil {
			return stage.EffectiveGrants{}, err
		}
	}
	return g, nil
}
