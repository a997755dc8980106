package stage

import (
	"errors"
	"path/filepath"

	"github.com/mur-go/mur/internal/base/diag"
)

// WorkdirReport is what `mur run --explain-scope --workdir DIR` says of
// DIR: what a later run trusts that it holds, and the refusal a run with
// it would meet (checkTrusted), from the manifest alone.
type WorkdirReport struct {
	Path string `json:"path"`
	// Holds names the trusted paths in it ("what (relative path)").
	Holds []string `json:"holds"`
	// Refusal is "E-CAP-002: <message>" when a run would be refused.
	Refusal string `json:"refusal,omitempty"`
	// RefusedIfNative is true when DIR holds a trusted path and the
	// manifest starts no subprocess itself: the run is refused if one of
	// its registry artifacts is a native tool, known once it is staged.
	RefusedIfNative bool `json:"refused_if_native_tool,omitempty"`
}

// ExplainWorkdir decides for opts.Workdir what Stage's check would, before
// anything is resolved: every declared registry artifact counts as a WASM
// guest with its filesystem.scope. opts is as Stage takes it.
func ExplainWorkdir(opts Options) (*WorkdirReport, error) {
	if err := opts.defaults(); err != nil {
		return nil, err
	}
	f := opts.Manifest
	dir, err := userWorkdir(opts.Workdir, opts.Cwd)
	if err != nil {
		return nil, err
	}
	manifestPath, err := filepath.Abs(f.Path)
	if err != nil {
		return nil, ioError("failed to resolve the manifest path: "+err.Error(), err)
	}
	s := &Staged{Capsule: f.Capsule, Workdir: Workdir{trusted: trustedPaths(f, &opts)}}
	for i := range f.Capsule.Artifacts {
		ref := &f.Capsule.Artifacts[i]
		a := &Artifact{Name: ref.Name, Role: Role(ref.Runtime), Kind: KindWasm, Ref: ref}
		if ref.IsLocal() {
			a.Kind = KindSkill
		}
		a.Grants.Scope = ref.Capabilities.Scope()
		s.Artifacts = append(s.Artifacts, a)
	}
	r := &WorkdirReport{Path: dir, Holds: s.heldIn(dir)}
	if r.Holds == nil {
		r.Holds = []string{}
	}
	if err := s.checkTrusted(layout(filepath.Dir(manifestPath), dir, "ses_explain")); err != nil {
		r.Refusal = err.Error()
		var e *diag.Error
		if errors.As(err, &e) {
			r.Refusal = string(e.Code) + ": " + e.Msg
		}
		return r, nil
	}
	r.RefusedIfNative = len(r.Holds) > 0 && !s.StartsSubprocesses()
	return r, nil
}
