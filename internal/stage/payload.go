package stage

import (
	"context"
	"fmt"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/store/install"
)

// staged is an artifact held in memory between verification and the
// first write: everything that can fail has failed by then.
type staged struct {
	*Artifact
	binary []byte // KindNative
}

// extract accepts a resolved package (install's verify, lock check and
// extract steps) and reads what the entry's role needs (artifacts.md §1):
// the manifest always, then the native binary, the root wasm (compiled
// here, before any directory exists) or skill.md.
func extract(ctx context.Context, f *install.Fetcher, fe fetched, comp Compiler) (*staged, error) {
	ref, role := fe.ref, Role(fe.ref.Runtime)
	var hook *manifest.HookContract
	fe.res.Payload = func(a *install.Artifact) (install.Payload, error) {
		switch role {
		case RoleSkill:
			return install.PayloadSkill, nil
		case RoleTool:
			if a.Manifest.IsNative() {
				return install.PayloadNative, nil
			}
		case RoleHook:
			hc, err := a.Manifest.HookContract()
			if err != nil {
				return install.PayloadNone, hookConfigError(ref.Name, fe.version, err)
			}
			hook = &hc
		}
		return install.PayloadWasm, nil
	}
	got, err := f.Accept(ctx, fe.res)
	if err != nil {
		return nil, fetchError(ref, fe.version, fe.res.Source.Name, err)
	}
	a := &Artifact{
		Name: ref.Name, Version: fe.version, Role: role, Ref: ref, Hook: hook,
		Manifest: got.Manifest, ManifestYAML: got.ManifestYAML, SHA256: got.SHA256, Store: got.Source, Platform: got.Platform,
	}
	s := &staged{Artifact: a}
	switch got.Payload {
	case install.PayloadSkill:
		a.Kind, a.SkillText = KindSkill, string(got.PayloadData)
	case install.PayloadNative:
		a.Kind, s.binary = KindNative, got.PayloadData
		a.BinarySHA256 = artifact.SHA256Hex(s.binary)
	default:
		a.Kind, a.WasmEntry = KindWasm, got.PayloadEntry
		if a.Component, err = compile(ctx, comp, ref.Name+"@"+fe.version, got.PayloadData); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// announcing is a Compiler that tells on around each compile
// (Options.OnCompile).
type announcing struct {
	Compiler
	on func(what string) (done func())
}

// announced is comp, telling on around each compile when on is set.
func announced(comp Compiler, on func(string) func()) Compiler {
	if comp == nil || on == nil {
		return comp
	}
	return announcing{comp, on}
}

// compile runs the Compiler, mapping failure to E-RUN-001.
func compile(ctx context.Context, comp Compiler, what string, wasm []byte) (*component.Component, error) {
	if a, ok := comp.(announcing); ok {
		defer a.on(what)()
		comp = a.Compiler
	}
	if comp == nil {
		return nil, &diag.Error{Code: CodeCompile, Msg: fmt.Sprintf("no compiler configured to compile %s", what),
			Hint: "this is a bug in the caller: pass stage.Options.Compiler (a *component.Engine)"}
	}
	c, err := comp.Compile(ctx, wasm)
	if err != nil {
		return nil, &diag.Error{Code: CodeCompile, Err: err,
			Msg:  fmt.Sprintf("failed to compile the WebAssembly component of %s: %v", what, err),
			Hint: "the payload must be a WebAssembly component (not a core module) built for WASI 0.2; rebuild it"}
	}
	return c, nil
}
