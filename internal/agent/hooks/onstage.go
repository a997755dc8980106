package hooks

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mur-go/mur/internal/base/confined"
	"github.com/mur-go/mur/internal/stage"
)

// Stage dispatches on-stage (wit.md §6.3, §6.4) for a freshly staged
// session, script capsules included: after the artifact and generated
// shell-tool manifests are written, every blocking hook bound to on-stage
// or unbound gets a throwaway instance rooted at the session workdir, and
// its write-manifests output is written to tools/<binary>/murmur.yaml
// and, for a shell tool, kept in the session as the inventory reads it.
// Hook failures are logged only; the error is the runtime's own failure
// ("failed to build on-stage runtime: …"). opts.Staged is the view
// staging hands to stage.Options.OnStage.
func Stage(ctx context.Context, opts Options) error {
	if opts.Staged.Capsule == nil || opts.Staged.SetShellManifest == nil {
		return errors.New("hooks.Stage: Options.Staged must be the view staging hands to on-stage")
	}
	if !hasStageHooks(opts.Staged) {
		return nil
	}
	o := opts.withDefaults()
	// No driver exists yet at staging: run-inference answers "not configured".
	o.Driver, o.CompactionDriver = nil, nil
	r, err := newRuntime(o)
	if err != nil {
		return fmt.Errorf("failed to build on-stage runtime: %w", err)
	}
	shellAllow := r.s.Capsule.Capabilities.ShellAllow()
	for _, h := range r.specs(true) {
		if !h.async && h.matches(fnStage) {
			r.stageOne(ctx, h, shellAllow)
		}
	}
	return nil
}

// hasStageHooks reports a blocking hook bound to on-stage or unbound, so
// a session without one builds no runtime at all.
func hasStageHooks(s stage.HookView) bool {
	for _, a := range s.Artifacts {
		if a.Role == stage.RoleHook && a.Hook != nil && a.Hook.ExecutionMode != "async" && (a.Hook.Binding == "" || a.Hook.Binding == fnStage) {
			return true
		}
	}
	return false
}

// OnStage adapts Stage to stage.Options.OnStage: staging calls it once the
// workdir is laid out.
func OnStage(opts Options) func(context.Context, stage.HookView) error {
	return func(ctx context.Context, s stage.HookView) error {
		opts.Staged = s
		return Stage(ctx, opts)
	}
}

func (r *Runtime) stageOne(ctx context.Context, h *hookSpec, shellAllow []string) {
	in, err := r.instantiate(ctx, h, nil, []string{fnStage})
	if err != nil {
		r.logHook(h.name, err.Error())
		return
	}
	defer in.close(ctx)
	if in.funcs[fnStage] == nil {
		r.logHook(h.name, fmt.Sprintf("hook %s@%s missing on-stage", h.name, h.version))
		return
	}
	v, _, err := in.call(ctx, fnStage, stageValue(shellAllow))
	if err != nil {
		r.logHook(h.name, err.Error())
		return
	}
	if v.Case != armWriteManifests {
		if v.Case != armNone {
			// No trace exists yet: on-stage faults are log-only.
			r.logHook(h.name, unsupportedArm(h.name, armName(v.Case), fnStage))
		}
		return
	}
	for _, m := range manifestsFrom(v.Value) {
		r.writeManifest(h.name, m)
	}
}

// writeManifest writes one tool manifest under tools/, overwriting the
// generated one. The binary name is joined verbatim but inside a Root of
// tools/: a name that climbs out, or a planted link, fails and is logged.
func (r *Runtime) writeManifest(hook string, m toolManifest) {
	root, err := os.OpenRoot(r.s.ToolsDir)
	if err != nil {
		r.logHook(hook, fmt.Sprintf("failed to create tool dir for %s: %v", m.binary, err))
		return
	}
	defer root.Close()
	if err := root.MkdirAll(m.binary, 0o755); err != nil {
		r.logHook(hook, fmt.Sprintf("failed to create tool dir for %s: %v", m.binary, err))
		return
	}
	if err := confined.WriteFile(root, filepath.Join(m.binary, "murmur.yaml"), []byte(m.content), 0o644, os.O_CREATE|os.O_TRUNC); err != nil {
		r.logHook(hook, fmt.Sprintf("failed to write manifest for %s: %v", m.binary, err))
		return
	}
	// The loop's inventory lists shell tools from the session, never from
	// tools/ (which a shell command may rewrite): the session takes the
	// manifest as written, read once, here.
	if err := r.s.SetShellManifest(m.binary, []byte(m.content)); err != nil {
		r.logHook(hook, fmt.Sprintf("manifest for %s is not a tool manifest, so the tool inventory leaves %s out: %v", m.binary, m.binary, err))
	}
}
