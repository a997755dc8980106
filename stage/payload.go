package stage

import (
	"context"
	"fmt"
	"strings"

	"github.com/mur-go/mur/artifact"
	"github.com/mur-go/mur/component"
	"github.com/mur-go/mur/manifest"
)

// staged is an artifact held in memory between verification and the
// first write: everything that can fail has failed by then.
type staged struct {
	*Artifact
	binary []byte // KindNative
}

// extract opens a verified package and reads what the entry's role needs
// (artifacts.md §1): the manifest always, then the native binary, the root
// wasm (compiled here, before any directory exists) or skill.md. Only
// fixed entry names are read, each through the decompression ceiling.
func extract(ctx context.Context, f fetched, sha string, maxEntry int64, comp Compiler) (*staged, error) {
	name, ver := f.ref.Name, f.version
	archiveErr := func(err error) error {
		return &Error{Code: CodeIO, Artifact: name, Err: err,
			Msg:  fmt.Sprintf("failed to read artifact archive for %s@%s: %v", name, ver, diagText(err)),
			Hint: fmt.Sprintf("the package is well-formed but not usable as a %s; rebuild it with `mur build` and publish a new version", f.ref.Runtime)}
	}
	pkg, err := artifact.Open(f.res.Data, maxEntry)
	if err != nil {
		return nil, archiveErr(err)
	}
	raw, err := pkg.Manifest()
	if err != nil {
		return nil, archiveErr(fmt.Errorf("missing or unreadable murmur.yaml in artifact archive: %w", err))
	}
	mf, _, err := manifest.Parse(raw, artifact.ManifestEntry, manifest.ParseOptions{Role: manifest.RoleArtifact})
	if err != nil {
		return nil, archiveErr(fmt.Errorf("invalid murmur.yaml in artifact archive: %w", err))
	}
	a := &Artifact{
		Name: name, Version: ver, Role: Role(f.ref.Runtime), Ref: f.ref,
		Manifest: mf.Artifact, ManifestYAML: raw, SHA256: sha, Store: f.store, Platform: f.res.Platform,
	}
	s := &staged{Artifact: a}
	switch a.Role {
	case RoleSkill:
		a.Kind = KindSkill
		md, err := pkg.Skill()
		if err != nil {
			return nil, archiveErr(fmt.Errorf("skill.md not found or unreadable at archive root: %w", err))
		}
		a.SkillText = string(md)
		return s, nil
	case RoleTool:
		if mf.Artifact.IsNative() {
			a.Kind = KindNative
			if s.binary, err = pkg.NativeBinary(name); err != nil {
				return nil, archiveErr(fmt.Errorf("failed to read native binary at 'bin/%s' from archive (ensure the binary is at bin/%s inside the .mur.zip): %w", name, name, err))
			}
			a.BinarySHA256 = artifact.SHA256Hex(s.binary)
			return s, nil
		}
	case RoleHook:
		hc, err := mf.Artifact.HookContract()
		if err != nil {
			return nil, &Error{Code: CodeIO, Artifact: name, Err: err,
				Msg:  fmt.Sprintf("hook %s@%s invalid config: %v", name, ver, diagText(err)),
				Hint: "fix binding, execution_mode or commit_policy in the hook's own murmur.yaml and publish a new version"}
		}
		a.Hook = &hc
	}
	a.Kind = KindWasm
	entry, wasm, err := pkg.RootWasm()
	if err != nil {
		return nil, archiveErr(err)
	}
	a.WasmEntry = entry
	if a.Component, err = compile(ctx, comp, name+"@"+ver, wasm); err != nil {
		return nil, err
	}
	return s, nil
}

// compile runs the Compiler, mapping failure to E-RUN-001.
func compile(ctx context.Context, comp Compiler, what string, wasm []byte) (*component.Component, error) {
	if comp == nil {
		return nil, &Error{Code: CodeCompile, Msg: fmt.Sprintf("no compiler configured to compile %s", what),
			Hint: "this is a bug in the caller: pass stage.Options.Compiler (a *component.Engine)"}
	}
	c, err := comp.Compile(ctx, wasm)
	if err != nil {
		return nil, &Error{Code: CodeCompile, Err: err,
			Msg:  fmt.Sprintf("failed to compile the WebAssembly component of %s: %v", what, err),
			Hint: "the payload must be a WebAssembly component (not a core module) built for WASI 0.2; rebuild it"}
	}
	return c, nil
}

// diagText is an error's text without "error[CODE]: " prefixes or hint
// lines, for embedding one diagnostic in another.
func diagText(err error) string {
	var lines []string
	for _, l := range strings.Split(err.Error(), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "hint:") {
			continue
		}
		for {
			i := strings.Index(l, "error[")
			j := strings.Index(l, "]: ")
			if i < 0 || j < i {
				break
			}
			l = l[:i] + l[j+3:]
		}
		lines = append(lines, l)
	}
	return strings.Join(lines, "; ")
}
