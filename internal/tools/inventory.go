package tools

import (
	"context"
	"maps"
	"slices"
	"sync"
)

// InstalledArtifact is one staged artifact as artifact-manager sees it.
type InstalledArtifact struct {
	Name    string
	Version string
	// Role is the artifact manifest's runtime: tool, driver, hook, skill.
	Role string
	// Native is implementation: native (a tool run as a subprocess).
	Native bool
	// Manifest is the artifact's murmur.yaml as staging verified it (nil
	// for local-source skills, which have none). manage.describe reads
	// this, never tools/<name>/murmur.yaml, which guests can rewrite.
	Manifest []byte
}

// Inventory is the staged-manifest view behind manage.list and
// manage.describe. The staging layer provides it, from memory.
type Inventory interface {
	// Installed lists the staged artifacts of every role, in staging order.
	Installed() []InstalledArtifact
	// ShellAllow is capabilities.shell.allow.
	ShellAllow() []string
	// ShellManifest is the manifest staging generated for a shell.allow
	// binary (false when it generated none).
	ShellManifest(name string) ([]byte, bool)
}

// Puller installs an artifact while the capsule runs (manage.pull). An
// implementation must follow wit.md §5.5 and return errors in its words:
// resolve for the current platform ("failed to resolve <n>@<v>: <e>"),
// verify the sha256 ("artifact integrity check failed for <n>@<v>: ..."),
// refuse a murmur.lock conflict ("murmur.lock conflict for '<n>': ..."),
// write nothing before those checks pass, stage the files under
// tools/<name>/, then update murmur.lock atomically, and finally make the
// artifact visible to Inventory and to the capsule's Tools. A pull never
// extends the invoke allowlist.
type Puller interface {
	Pull(ctx context.Context, name, version string) (InstalledArtifact, error)
}

// StagedInventory is an Inventory held in memory; Add makes a pulled
// artifact visible.
type StagedInventory struct {
	mu         sync.RWMutex
	shellAllow []string
	shellMF    map[string][]byte
	installed  []InstalledArtifact
}

// NewStagedInventory returns an inventory of the staged artifacts and
// shell.allow binaries, with the manifests staging generated for the
// latter (by binary name).
func NewStagedInventory(shellAllow []string, shellManifests map[string][]byte, installed []InstalledArtifact) *StagedInventory {
	return &StagedInventory{shellAllow: slices.Clone(shellAllow), shellMF: maps.Clone(shellManifests), installed: slices.Clone(installed)}
}

// Add records a, replacing an artifact of the same name.
func (s *StagedInventory) Add(a InstalledArtifact) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i := slices.IndexFunc(s.installed, func(x InstalledArtifact) bool { return x.Name == a.Name }); i >= 0 {
		s.installed[i] = a
		return
	}
	s.installed = append(s.installed, a)
}

// Installed implements Inventory.
func (s *StagedInventory) Installed() []InstalledArtifact {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.Clone(s.installed)
}

// ShellAllow implements Inventory.
func (s *StagedInventory) ShellAllow() []string { return slices.Clone(s.shellAllow) }

// ShellManifest implements Inventory.
func (s *StagedInventory) ShellManifest(name string) ([]byte, bool) {
	b, ok := s.shellMF[name]
	return b, ok
}
