package plan

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tetratelabs/wazero/api"

	"github.com/mur-go/mur/engine/canon"
	"github.com/mur-go/mur/engine/component/internal/ast"
	"github.com/mur-go/mur/engine/component/internal/coremod"
	"github.com/mur-go/mur/engine/component/internal/validate"
)

var (
	sigRealloc = canon.Signature{Params: []api.ValueType{api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32}, Results: []api.ValueType{api.ValueTypeI32}}
	sigDtor    = canon.Signature{Params: []api.ValueType{api.ValueTypeI32}}
	sigI32I32  = canon.Signature{Params: []api.ValueType{api.ValueTypeI32}, Results: []api.ValueType{api.ValueTypeI32}}
)

// coreCheck is a requirement on a core item's type that can only be
// checked once the core modules are compiled: that it is a function (of
// signature sig, if non-nil) or a memory. Tables and globals are left to
// instantiation: wazero does not list a compiled module's exports of them.
type coreCheck struct {
	item CoreItem
	sort ast.Sort
	sig  *canon.Signature
	rule string
	what string
	off  int
}

func (p *Plan) requireFunc(it CoreItem, sig canon.Signature, rule, what string, off int) {
	p.coreChecks = append(p.coreChecks, coreCheck{item: it, sort: ast.SortCoreFunc, sig: &sig, rule: rule, what: what, off: off})
}

// requireSort records that a core item must be of the given sort.
func (p *Plan) requireSort(it CoreItem, sort ast.Sort, rule, what string, off int) {
	p.coreChecks = append(p.coreChecks, coreCheck{item: it, sort: sort, rule: rule, what: what, off: off})
}

func sigString(s canon.Signature) string {
	str := func(ts []api.ValueType) string {
		names := make([]string, len(ts))
		for i, t := range ts {
			names[i] = api.ValueTypeName(t)
		}
		return "(" + strings.Join(names, " ") + ")"
	}
	return str(s.Params) + " -> " + str(s.Results)
}

func sigOf(d api.FunctionDefinition) canon.Signature {
	return canon.Signature{Params: d.ParamTypes(), Results: d.ResultTypes()}
}

func sigEqual(a, b canon.Signature) bool {
	return slices.Equal(a.Params, b.Params) && slices.Equal(a.Results, b.Results)
}

// hostSig is the core type of a host-implemented core function.
func (h *HostFunc) sig() canon.Signature {
	switch h.Kind {
	case HostLower:
		return h.Target.ABI.LowerSignature()
	case HostResourceDrop:
		return sigDtor
	}
	return sigI32I32
}

// checkCoreTypes runs the checks that need compiled core modules: the
// recorded requirements of canonical definitions, and that every core
// import is satisfied by an item of its type (wazero would only find out
// at instantiation).
func (p *Plan) checkCoreTypes() error {
	for _, c := range p.coreChecks {
		if err := p.checkCore(c); err != nil {
			return err
		}
	}
	for _, ci := range p.CoreInsts {
		for _, def := range ci.Compiled.ImportedFunctions() {
			mod, name, _ := def.Import()
			want, ok, err := p.providedSig(mod, name)
			if err != nil {
				return validate.Invalid(validate.RuleCoreImportType, ci.offset, "core import %q: %v", name, err)
			}
			if ok && !sigEqual(want, sigOf(def)) {
				return validate.Invalid(validate.RuleCoreImportType, ci.offset, "core import of type %s is given a function of type %s", sigString(sigOf(def)), sigString(want))
			}
		}
	}
	return p.checkCoreExternImports()
}

// checkCoreExternImports checks every table, memory and global import
// against the export that supplies it, by core subtyping (wazero lists no
// compiled module's tables or globals, so both sides are read from the
// module bytes).
func (p *Plan) checkCoreExternImports() error {
	exports := map[int]map[string]coremod.ExternType{}
	for _, ci := range p.CoreInsts {
		imps, _, err := coremod.ExternTypes(ci.Bytes)
		if err != nil {
			return validate.Invalid(validate.RuleCoreModule, ci.offset, "%v", err)
		}
		for _, imp := range imps {
			k, ok := providerIndex(imp.Module)
			if !ok || k >= len(p.CoreInsts) {
				continue
			}
			if exports[k] == nil {
				if _, exports[k], err = coremod.ExternTypes(p.CoreInsts[k].Bytes); err != nil {
					return validate.Invalid(validate.RuleCoreModule, p.CoreInsts[k].offset, "%v", err)
				}
			}
			got, ok := exports[k][imp.Name]
			if !ok {
				return validate.Invalid(validate.RuleCoreImportType, ci.offset, "core import %q: the supplied instance has no export %q", imp.Name, imp.Name)
			}
			if imp.Kind == coremod.KindFunc && got.Kind == coremod.KindFunc {
				continue // signatures: checkCoreTypes
			}
			if err := imp.ExternType.Matches(got); err != nil {
				return validate.Invalid(validate.RuleCoreImportType, ci.offset, "core import %q: %v", imp.Name, err)
			}
		}
	}
	return nil
}

// checkCoreKind checks that a core item required to be a table, global
// or tag is one (wazero lists none of them; the module bytes say).
func (p *Plan) checkCoreKind(c coreCheck) error {
	want, ok := map[ast.Sort]coremod.Kind{ast.SortCoreTable: coremod.KindTable, ast.SortCoreGlobal: coremod.KindGlobal, ast.SortCoreTag: coremod.KindTag}[c.sort]
	if !ok {
		return nil
	}
	if c.item.Inst == HostInst {
		return validate.Invalid(c.rule, c.off, "%s: a function is not a %s", c.what, c.sort)
	}
	_, exps, err := coremod.ExternTypes(p.CoreInsts[c.item.Inst].Bytes)
	if err != nil {
		return validate.Invalid(validate.RuleCoreModule, c.off, "%v", err)
	}
	if got, ok := exps[c.item.Name]; !ok || got.Kind != want {
		return validate.Invalid(c.rule, c.off, "%s: core export %q is not a %s", c.what, c.item.Name, c.sort)
	}
	return nil
}

// providerIndex parses the renamed module of an import that another core
// instance provides.
func providerIndex(mod string) (int, bool) {
	k, err := strconv.Atoi(strings.TrimPrefix(mod, "$"))
	return k, err == nil && strings.HasPrefix(mod, "$")
}

// providedSig is the type of what satisfies a renamed core func import;
// ok is false when the import is not checked here (the yield function).
func (p *Plan) providedSig(mod, name string) (canon.Signature, bool, error) {
	if mod == HostModule {
		if name == YieldFunc {
			return canon.Signature{}, false, nil
		}
		n, err := strconv.Atoi(name)
		if err != nil || n < 0 || n >= len(p.HostFuncs) {
			return canon.Signature{}, false, fmt.Errorf("unknown host function %q", name)
		}
		return p.HostFuncs[n].sig(), true, nil
	}
	k, ok := providerIndex(mod)
	if !ok || k >= len(p.CoreInsts) {
		return canon.Signature{}, false, fmt.Errorf("unknown provider %q", mod)
	}
	d, ok := p.CoreInsts[k].Compiled.ExportedFunctions()[name]
	if !ok {
		return canon.Signature{}, false, fmt.Errorf("the supplied instance's export %q is not a function", name)
	}
	return sigOf(d), true, nil
}

func (p *Plan) checkCore(c coreCheck) error {
	if c.sort != ast.SortCoreFunc && c.sort != ast.SortCoreMemory {
		return p.checkCoreKind(c)
	}
	if c.item.Inst == HostInst {
		if c.sort != ast.SortCoreFunc {
			return validate.Invalid(c.rule, c.off, "%s: a function is not a %s", c.what, c.sort)
		}
		if c.sig == nil {
			return nil
		}
		if got := p.HostFuncs[c.item.Host].sig(); !sigEqual(got, *c.sig) {
			return validate.Invalid(c.rule, c.off, "%s has type %s, want %s", c.what, sigString(got), sigString(*c.sig))
		}
		return nil
	}
	m := p.CoreInsts[c.item.Inst].Compiled
	if c.sort == ast.SortCoreMemory {
		if _, ok := m.ExportedMemories()[c.item.Name]; !ok {
			return validate.Invalid(c.rule, c.off, "%s: core export %q is not a memory", c.what, c.item.Name)
		}
		return nil
	}
	d, ok := m.ExportedFunctions()[c.item.Name]
	if !ok {
		return validate.Invalid(c.rule, c.off, "%s: core export %q is not a function", c.what, c.item.Name)
	}
	if c.sig == nil {
		return nil
	}
	if got := sigOf(d); !sigEqual(got, *c.sig) {
		return validate.Invalid(c.rule, c.off, "%s has type %s, want %s", c.what, sigString(got), sigString(*c.sig))
	}
	return nil
}
