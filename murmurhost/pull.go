package murmurhost

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mur-go/mur/artifact"
	"github.com/mur-go/mur/internal/confined"
	"github.com/mur-go/mur/lockfile"
	"github.com/mur-go/mur/registry"
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
// order wit.md §5.5 requires: resolve, verify, check the lock, and only
// then write anything; the lock is updated last, atomically.
type RegistryPuller struct {
	Registry registry.Resolver
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
	res, err := p.Registry.Resolve(ctx, name, version, plat)
	if err != nil {
		return InstalledArtifact{}, fmt.Errorf("failed to resolve %s: %w", ref, err)
	}
	if err := res.Verify(); err != nil {
		return InstalledArtifact{}, fmt.Errorf("artifact integrity check failed for %s: registry-reported hash does not match downloaded bytes", ref)
	}
	lock, err := lockfile.ReadOrNew(p.LockPath)
	if err != nil {
		return InstalledArtifact{}, fmt.Errorf("failed to read murmur.lock: %w", err)
	}
	sha := artifact.SHA256Hex(res.Data)
	if err := lock.CheckInstall(name, res.Version, sha); err != nil {
		var conflict *lockfile.ConflictError
		if errors.As(err, &conflict) {
			return InstalledArtifact{}, fmt.Errorf("%s — refusing to override a pinned artifact at runtime", conflict.Message())
		}
		return InstalledArtifact{}, err
	}

	// Everything is read into memory before the first write.
	pkg, err := artifact.Open(res.Data, artifact.MaxDecompressedBytes(os.Getenv))
	if err != nil {
		return InstalledArtifact{}, fmt.Errorf("failed to open %s: %w", ref, err)
	}
	manifest, err := pkg.Manifest()
	if err != nil {
		return InstalledArtifact{}, fmt.Errorf("failed to read the manifest of %s: %w", ref, err)
	}
	a := PulledArtifact{InstalledArtifact: InstalledArtifact{Name: name, Version: res.Version, Role: "tool", Manifest: manifest},
		Dir: filepath.Join(p.ToolsDir, name)}
	files := []file{{"murmur.yaml", manifest, 0o644}}
	switch res.Meta.Runtime {
	case artifact.Native:
		a.Native = true
		bin, err := pkg.NativeBinary(name)
		if err != nil {
			return InstalledArtifact{}, fmt.Errorf("failed to read the binary of %s: %w", ref, err)
		}
		files = append(files, file{name, bin, 0o755})
		a.BinarySHA256 = artifact.SHA256Hex(bin)
	case artifact.Static:
		a.Role = "skill"
		md, err := pkg.Skill()
		if err != nil {
			return InstalledArtifact{}, fmt.Errorf("failed to read the skill of %s: %w", ref, err)
		}
		files = append(files, file{"skill.md", md, 0o644})
		a.Skill = string(md)
	default:
		if _, a.Wasm, err = pkg.RootWasm(); err != nil {
			return InstalledArtifact{}, fmt.Errorf("failed to read the component of %s: %w", ref, err)
		}
	}

	if err := p.write(name, files); err != nil {
		return InstalledArtifact{}, fmt.Errorf("failed to stage %s: %w", ref, err)
	}
	var tool Tool
	if p.NewTool != nil {
		if tool, err = p.NewTool(ctx, a); err != nil {
			return InstalledArtifact{}, fmt.Errorf("failed to load %s: %w", ref, err)
		}
	}
	lock.Upsert(lockfile.Entry{Name: name, ResolvedVersion: res.Version, SHA256: lockfile.Hashes{Wasm: sha}})
	if err := lockfile.Write(p.LockPath, lock); err != nil {
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

// file is one file a pull stages under tools/<name>/.
type file struct {
	name string
	data []byte
	perm os.FileMode
}

// write stages files under ToolsDir/name without following a link that
// a guest or tool planted there (confined to ToolsDir, last element never
// followed).
func (p *RegistryPuller) write(name string, files []file) error {
	if err := os.MkdirAll(p.ToolsDir, 0o755); err != nil {
		return err
	}
	root, err := os.OpenRoot(p.ToolsDir)
	if err != nil {
		return err
	}
	defer root.Close()
	if err := root.MkdirAll(name, 0o755); err != nil {
		return err
	}
	for _, f := range files {
		if err := confined.WriteFile(root, filepath.Join(name, f.name), f.data, f.perm, os.O_CREATE|os.O_TRUNC); err != nil {
			return err
		}
	}
	return nil
}
