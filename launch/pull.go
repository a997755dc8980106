package launch

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/mur-go/mur/artifact"
	"github.com/mur-go/mur/component"
	"github.com/mur-go/mur/registry"
	"github.com/mur-go/mur/stage"
	"github.com/mur-go/mur/tools"
)

// Stores returns the stores manage.pull searches, in Murmur's order: the
// project store beside murmur.yaml, then the global store (skipped when
// there is no home directory).
func Stores(projectDir string, getenv func(string) string) []registry.Resolver {
	stores := []registry.Resolver{registry.NewLocal(registry.ProjectRoot(projectDir), nil)}
	if g, err := registry.GlobalRoot(getenv); err == nil {
		stores = append(stores, registry.NewLocal(g, nil))
	}
	return stores
}

// chain resolves from the first store that has the package. Its errors
// are one line without a diagnostic code: the capsule receives them as
// the <e> of "failed to resolve <n>@<v>: <e>".
type chain []registry.Resolver

func (c chain) Resolve(ctx context.Context, name, version string, p *artifact.Platform) (*registry.Resolved, error) {
	for _, r := range c {
		res, err := r.Resolve(ctx, name, version, p)
		if errors.Is(err, registry.ErrNotFound) {
			continue
		}
		var re *registry.Error
		if errors.As(err, &re) && re.Err != nil {
			return nil, fmt.Errorf("%s: %w", re.Msg, re.Err)
		} else if re != nil {
			return nil, errors.New(re.Msg)
		}
		return res, err
	}
	return nil, fmt.Errorf("not installed in the project or global store (run `mur install %s@%s` first): %w", name, version, registry.ErrNotFound)
}

// newPuller is manage.pull over the stores: resolve, verify, check the
// lock, and only then stage and pin (tools.RegistryPuller keeps that
// order). A pulled artifact becomes listed and, if the manifest declared a
// tool of that name, callable; it never widens the allowlist.
func newPuller(o *Options, linker *component.Linker, tb *toolbox) tools.Puller {
	if len(o.Stores) == 0 {
		return nil
	}
	s := o.Session
	return &tools.RegistryPuller{
		Registry:  chain(o.Stores),
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
func ceilingGrants(s *stage.Session) stage.Grants {
	g := s.Ceiling
	if g.Preopen == "" {
		g.Preopen = s.AccessibleDir
	}
	return g
}
