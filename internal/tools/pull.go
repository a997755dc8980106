package tools

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/format/lockfile"
	"github.com/mur-go/mur/internal/store/install"
	"github.com/mur-go/mur/internal/store/registry"
)

// PulledArtifact is what a runtime pull staged, handed to
// RegistryPuller.NewTool so the session can make it callable.
type PulledArtifact struct {
	InstalledArtifact
	// Dir is tools/<name>/ in the session workdir.
	Dir string
	// Wasm is the root component of a wasm artifact, nil otherwise.
	Wasm []byte
	// Skill is a skill's guidance text and BinarySHA256 the hex digest of
	// a native tool's binary, both from the verified package: the tool
	// made of them never trusts the copies written under Dir.
	Skill        string
	BinarySHA256 string
}

// RegistryPuller is the Puller over the registry and murmur.lock, in the
// order wit.md §5.5 requires, which is install's pipeline: resolve,
// verify, check the lock, extract, and only then write anything; the lock
// is updated last, atomically.
type RegistryPuller struct {
	// Sources are asked in order, as staging asks them (the project store,
	// then the global store); the first that has the package wins.
	Sources []install.Source
	// LockPath is murmur.lock beside the capsule's murmur.yaml.
	LockPath string
	// ToolsDir is <session workdir>/tools.
	ToolsDir string
	// Platform is the variant to ask for; nil means the current host's.
	Platform *artifact.Platform
	// Inventory and Tools receive the pulled artifact, so list, describe
	// and invoke see it. Either may be nil.
	Inventory *StagedInventory
	Tools     *ToolSet
	// NewTool makes the staged artifact callable (compile the component
	// with the ceiling grants, wrap the binary, point at skill.md). nil
	// leaves it staged and listed but not callable.
	NewTool func(ctx context.Context, a PulledArtifact) (Tool, error)
}

// Pull implements Puller. A pull never extends the invoke allowlist: a
// pulled tool is callable only if the manifest already declared it.
func (p *RegistryPuller) Pull(ctx context.Context, name, version string) (InstalledArtifact, error) {
	ref := name + "@" + version
	if err := artifact.CheckName(name); err != nil {
		return InstalledArtifact{}, fmt.Errorf("failed to resolve %s: %w", ref, err)
	}
	plat := p.Platform
	if plat == nil {
		if cur, err := artifact.ParsePlatform(artifact.CurrentPlatform()); err == nil {
			plat = &cur
		}
	}
	f := &install.Fetcher{Sources: p.Sources, Mode: install.Guard}
	res, err := f.Resolve(ctx, install.Request{Name: name, Version: version, Platform: plat, Payload: pullPayload})
	if err != nil {
		return InstalledArtifact{}, fmt.Errorf("failed to resolve %s: %w", ref, resolveCause(name, version, err))
	}
	lock, err := lockfile.ReadOrNew(p.LockPath)
	if err != nil {
		return InstalledArtifact{}, fmt.Errorf("failed to read murmur.lock: %w", err)
	}
	f.Lock = lock
	got, err := f.Accept(ctx, res)
	if err != nil {
		return InstalledArtifact{}, pullError(ref, err)
	}

	// What the runtime later trusts (describe, the skill text, the digest a
	// native call is checked against) comes from the verified bytes, never
	// from the copies placed under internal/tools/.
	a := PulledArtifact{InstalledArtifact: InstalledArtifact{Name: name, Version: res.Package.Version, Role: "tool",
		Manifest: got.ManifestYAML}, Dir: filepath.Join(p.ToolsDir, name)}
	switch got.Payload {
	case install.PayloadNative:
		a.Native = true
		a.BinarySHA256 = artifact.SHA256Hex(got.PayloadData)
	case install.PayloadSkill:
		a.Role = "skill"
		a.Skill = string(got.PayloadData)
	default:
		a.Wasm = got.PayloadData
	}
	if err := install.Place(a.Dir, got); err != nil {
		return InstalledArtifact{}, fmt.Errorf("failed to stage %s: %w", ref, err)
	}
	var tool Tool
	if p.NewTool != nil {
		if tool, err = p.NewTool(ctx, a); err != nil {
			return InstalledArtifact{}, fmt.Errorf("failed to load %s: %w", ref, err)
		}
	}
	if err := install.Pin(p.LockPath, lock, got.Pin()); err != nil {
		return InstalledArtifact{}, fmt.Errorf("failed to update murmur.lock: %w", err)
	}
	if p.Inventory != nil {
		p.Inventory.Add(a.InstalledArtifact)
	}
	if p.Tools != nil && tool != nil {
		p.Tools.Add(name, tool)
	}
	return a.InstalledArtifact, nil
}

// pullPayload extracts by the registry's packaging type, as Murmur's
// manage.pull does: native → bin/<name>, static → skill.md, else the root
// component.
func pullPayload(a *install.Artifact) (install.Payload, error) {
	switch a.Meta.Runtime {
	case artifact.Native:
		return install.PayloadNative, nil
	case artifact.Static:
		return install.PayloadSkill, nil
	}
	return install.PayloadWasm, nil
}

// pullError words a refused pull for the capsule, one line each.
func pullError(ref string, err error) error {
	var d *diag.Error
	switch {
	case errors.Is(err, install.StepVerify):
		return fmt.Errorf("artifact integrity check failed for %s: registry-reported hash does not match downloaded bytes", ref)
	case errors.Is(err, lockfile.ErrConflict) && errors.As(err, &d):
		return fmt.Errorf("%s — refusing to override a pinned artifact at runtime", d.Msg)
	case !errors.Is(err, install.StepExtract) || !errors.As(err, &d):
		return err
	}
	// An extract failure: d is install's, d.Err what the archive reported.
	switch {
	case errors.Is(err, install.PayloadNative):
		return fmt.Errorf("failed to read the binary of %s: %w", ref, d.Err)
	case errors.Is(err, install.PayloadSkill):
		return fmt.Errorf("failed to read the skill of %s: %w", ref, d.Err)
	case errors.Is(err, install.PayloadWasm):
		return fmt.Errorf("failed to read the component of %s: %w", ref, d.Err)
	case errors.Is(err, install.ErrManifest):
		return fmt.Errorf("failed to read the manifest of %s: %w", ref, d.Err)
	}
	return fmt.Errorf("failed to open %s: %w", ref, d.Err)
}

// resolveCause is a failed resolve in one line, without a diagnostic
// code: the capsule receives it as the <e> of "failed to resolve
// <n>@<v>: <e>".
func resolveCause(name, version string, err error) error {
	if errors.Is(err, registry.ErrNotFound) {
		return fmt.Errorf("not installed in the project or global store (run `mur install %s@%s` first): %w", name, version, registry.ErrNotFound)
	}
	var re *diag.Error
	switch {
	case errors.As(err, &re) && re.Err != nil:
		return fmt.Errorf("%s: %w", re.Msg, re.Err)
	case re != nil:
		return errors.New(re.Msg)
	default:
		return err
	}
}
