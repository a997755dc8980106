package component

import (
	"context"
	"fmt"
	"maps"
	"sort"
	"strings"
	"sync"

	"github.com/mur-go/mur/engine/component/internal/ast"
	"github.com/mur-go/mur/engine/component/internal/plan"
	"github.com/mur-go/mur/engine/wit"
)

// HostFunc implements an imported function in Go. args follow the value
// representation documented in package wit; the result is nil for
// functions without one. A returned error traps the calling guest.
type HostFunc func(ctx context.Context, s *Store, args []any) (any, error)

// Linker holds host definitions under versioned instance names. Define
// everything first, then instantiate; a Linker is safe for concurrent
// Instantiate calls once definitions are done.
type Linker struct {
	mu        sync.Mutex
	funcs     map[string]map[string]*hostDef // instanceKey → func name
	resources map[string]map[string]*wit.ResourceType
	dtors     map[*wit.ResourceType]ResourceDtor
	names     map[string]string // instanceKey → name as defined
	// modules are the core modules supplied for root core-module imports.
	modules map[string]*ast.CoreModule
	// linked caches the import resolution per component.
	linked map[*Component]*linkedImports
}

type hostDef struct {
	typ *wit.Func
	fn  HostFunc
}

// NewLinker returns an empty linker.
func NewLinker() *Linker {
	return &Linker{
		funcs:     map[string]map[string]*hostDef{},
		resources: map[string]map[string]*wit.ResourceType{},
		dtors:     map[*wit.ResourceType]ResourceDtor{},
		names:     map[string]string{},
		linked:    map[*Component]*linkedImports{},
	}
}

// DefineFunc defines function name of instance (e.g.
// "wasi:cli/environment@0.2.12", "get-environment"). A guest importing any
// semver-compatible version of the instance binds to it. instance "" defines
// a root-level function import.
func (l *Linker) DefineFunc(instance, name string, typ *wit.Func, fn HostFunc) error {
	if typ == nil || fn == nil {
		return fmt.Errorf("define %s#%s: nil type or function", instance, name)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	key := instanceKey(instance)
	if err := l.claim(key, instance); err != nil {
		return err
	}
	m := l.funcs[key]
	if m == nil {
		m = map[string]*hostDef{}
		l.funcs[key] = m
	}
	m[name] = &hostDef{typ: typ, fn: fn}
	clear(l.linked)
	return nil
}

// ResourceDtor destroys a host resource when a guest drops its last owning
// handle. rep is the value the host chose when it handed the resource out.
type ResourceDtor func(ctx context.Context, s *Store, rep uint32) error

// DefineResource defines resource type name of instance. Guests importing
// the instance see t as that resource; dropping an owning handle calls dtor
// (which may be nil).
func (l *Linker) DefineResource(instance, name string, t *wit.ResourceType, dtor ResourceDtor) error {
	if t == nil {
		return fmt.Errorf("define resource %s#%s: nil type", instance, name)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	key := instanceKey(instance)
	if err := l.claim(key, instance); err != nil {
		return err
	}
	m := l.resources[key]
	if m == nil {
		m = map[string]*wit.ResourceType{}
		l.resources[key] = m
	}
	m[name] = t
	if dtor != nil {
		l.dtors[t] = dtor
	}
	clear(l.linked)
	return nil
}

// claim records which exact name an instance key was defined under, so two
// semver-compatible definitions (0.2.3 and 0.2.12) can't silently mix.
func (l *Linker) claim(key, instance string) error {
	if prev, ok := l.names[key]; ok && prev != instance {
		return fmt.Errorf("instance %s is already defined as %s; define each interface under one version", instance, prev)
	}
	l.names[key] = instance
	return nil
}

// linkedImports is the per-component resolution of the root's imports.
type linkedImports struct {
	funcs     []*hostDef // by plan.Func.ID; nil for functions that are not imports
	resources map[*wit.ResourceType]*wit.ResourceType
	dtors     map[*wit.ResourceType]ResourceDtor
}

func (l *Linker) link(c *Component) (*linkedImports, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if li, ok := l.linked[c]; ok {
		return li, nil
	}
	p := c.plan
	li := &linkedImports{funcs: make([]*hostDef, len(p.Funcs)), resources: map[*wit.ResourceType]*wit.ResourceType{}, dtors: maps.Clone(l.dtors)}
	for _, r := range p.ImportedResources {
		host := l.resources[instanceKey(r.Instance)][r.Name]
		if host == nil && r.Implements != "" {
			host = l.resources[instanceKey(r.Implements)][r.Name]
		}
		if host == nil {
			return nil, &LinkError{Name: joinName(r.Instance, r.Name), Msg: "component imports this resource type, but the host does not provide it" + l.hint(r.Instance)}
		}
		li.resources[r.Type] = host
	}
	for _, fn := range p.Funcs {
		if !fn.Imported {
			continue
		}
		def := l.funcs[instanceKey(fn.Instance)][fn.Name]
		if def == nil && fn.Implements != "" {
			// An import under a label that implements an interface is
			// supplied by the host's definition of that interface.
			def = l.funcs[instanceKey(fn.Implements)][fn.Name]
		}
		if def == nil {
			return nil, &LinkError{Name: fn.String(), Msg: "component imports this function, but the host does not provide it" + l.hint(fn.Instance)}
		}
		if err := plan.FuncTypesMatch(fn.Type, def.typ, li.resources); err != nil {
			return nil, &LinkError{Name: fn.String(), Msg: "imported with a different type than the host provides: " + err.Error()}
		}
		li.funcs[fn.ID] = def
	}
	if len(l.linked) > 64 {
		clear(l.linked)
	}
	l.linked[c] = li
	return li, nil
}

// hint explains near misses: the instance defined under an incompatible
// version, or unversioned against versioned.
func (l *Linker) hint(instance string) string {
	if instance == "" {
		return ""
	}
	if defined, ok := l.names[instanceKey(instance)]; ok {
		return fmt.Sprintf(" (the host's %s has no such item)", defined)
	}
	base, _ := splitVersion(instance)
	var have []string
	for _, name := range l.names {
		if b, _ := splitVersion(name); b == base {
			have = append(have, name)
		}
	}
	if len(have) == 0 {
		return fmt.Sprintf(" (no version of %s is defined)", base)
	}
	sort.Strings(have)
	return fmt.Sprintf(" (the host defines %s, which is not semver-compatible)", strings.Join(have, ", "))
}

func joinName(instance, name string) string {
	if instance == "" {
		return name
	}
	return instance + "#" + name
}

// TypesMatch reports how got differs structurally from want, nil if it
// does not: the check the linker makes, for an embedder that type-checks
// an export against a contract of its own. Resources match only if they
// are the same resource type.
func TypesMatch(got, want wit.Type) error { return plan.TypesMatch(got, want, nil) }
