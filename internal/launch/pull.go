package launch

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/internal/stage"
	"github.com/mur-go/mur/internal/store/install"
	"github.com/mur-go/mur/internal/store/registry"
	"github.com/mur-go/mur/internal/tools"
)

// Stores returns the stores manage.pull searches, in Murmur's order: the
// project store beside murmur.yaml, then the global store (skipped when
// there is no home directory). They are install's sources, as staging's
// are, so a pull resolves exactly as staging did.
func Stores(projectDir string, getenv func(string) string) []install.Source {
	project := registry.ProjectRoot(projectDir)
	stores := []install.Source{{Name: project, Resolver: registry.NewLocal(project, nil)}}
	if g, err := registry.GlobalRoot(getenv); err == nil {
		stores = append(stores, install.Source{Name: g, Resolver: registry.NewLocal(g, nil)})
	}
	return stores
}

// newPuller is manage.pull over the stores: resolve, verify, check the
// lock, and only then stage and pin (tools.RegistryPuller keeps that
// order). A pulled artifact becomes listed and, if the manifest declared a
// tool of that name, callable; it never widens the allowlist.
func newPuller(o *Options, linker *component.Linker, tb *toolbox) tools.Puller {
	if len(o.Stores) == 0 {
		return nil
	}
	s := o.Staged
	return &tools.RegistryPuller{
		Sources:   o.Stores,
		LockPath:  s.LockPath,
		ToolsDir:  s.ToolsDir,
		Inventory: tb.inventory,
		Tools:     tb.tools,
		NewTool: func(ctx context.Context, a tools.PulledArtifact) (tools.Tool, error) {
			spec := toolSpec{name: a.Name, grants: ceilingGrants(s),
				binary: filepath.Join(a.Dir, a.Name), binarySHA256: a.BinarySHA256, skill: a.Skill}
			switch {
			case a.Role == "skill":
				spec.kind = stage.KindSkill
			case a.Native:
				spec.kind = stage.KindNative
			default:
				c, err := o.Engine.Compile(ctx, a.Wasm)
				if err != nil {
					return nil, fmt.Errorf("compiling %s@%s: %w", a.Name, a.Version, err)
				}
				spec.kind, spec.component = stage.KindWasm, c
			}
			t, err := newTool(o, linker, spec)
			if err != nil {
				return nil, err
			}
			return logged{name: a.Name, tool: t, log: o.Log}, nil
		},
	}
}

// ceilingGrants is what an artifact pulled at run time runs with: the
// capsule-wide ceiling, since the manifest says nothing narrower about it.
func ceilingGrants(s stage.GuestView) stage.Grants {
	g := s.Ceiling
	if g.Preopen == "" {
		g.Preopen = s.AccessibleDir
	}
	return g
}
