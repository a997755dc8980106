package component

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tetratelabs/wazero/api"

	"github.com/mur-go/mur/engine/canon"
	"github.com/mur-go/mur/engine/component/internal/ast"
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
	item coreItem
	sort ast.Sort
	sig  *canon.Signature
	rule string
	what string
	off  int
}

func (p *plan) requireFunc(it coreItem, sig canon.Signature, rule, what string, off int) {
	p.coreChecks = append(p.coreChecks, coreCheck{item: it, sort: ast.SortCoreFunc, sig: &sig, rule: rule, what: what, off: off})
}

// requireSort records that a core item must be of the given sort.
func (p *plan) requireSort(it coreItem, sort ast.Sort, rule, what string, off int) {
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
func (h *hostFuncPlan) sig() canon.Signature {
	switch h.kind {
	case hostLower:
		return h.target.abi.LowerSignature()
	case hostResourceDrop:
		return sigDtor
	}
	return sigI32I32
}

// checkCoreTypes runs the checks that need compiled core modules: the
// recorded requirements of canonical definitions, and that every core
// import is satisfied by an item of its type (wazero would only find out
// at instantiation).
func (p *plan) checkCoreTypes() error {
	for _, c := range p.coreChecks {
		if err := p.checkCore(c); err != nil {
			return err
		}
	}
	for _, ci := range p.coreInsts {
		for _, def := range ci.compiled.ImportedFunctions() {
			mod, name, _ := def.Import()
			want, ok, err := p.providedSig(mod, name)
			if err != nil {
				return validate.Invalid(validate.RuleCoreImportType, ci.offset, "core import %q: %v", name, err)
			}
			if ok && !sigEqual(want, sigOf(def)) {
				return validate.Invalid(validate.RuleCoreImportType, ci.offset, "core import of type %s is given a function of type %s", sigString(sigOf(def)), sigString(want))
			}
		}
		for _, def := range ci.compiled.ImportedMemories() {
			mod, name, _ := def.Import()
			if k, ok := providerIndex(mod); ok {
				if _, ok := p.coreInsts[k].compiled.ExportedMemories()[name]; !ok {
					return validate.Invalid(validate.RuleCoreImportType, ci.offset, "core memory import is given %q, which is not a memory", name)
				}
			}
		}
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
func (p *plan) providedSig(mod, name string) (canon.Signature, bool, error) {
	if mod == hostModuleName {
		if name == yieldFuncName {
			return canon.Signature{}, false, nil
		}
		n, err := strconv.Atoi(name)
		if err != nil || n < 0 || n >= len(p.hostFuncs) {
			return canon.Signature{}, false, fmt.Errorf("unknown host function %q", name)
		}
		return p.hostFuncs[n].sig(), true, nil
	}
	k, ok := providerIndex(mod)
	if !ok || k >= len(p.coreInsts) {
		return canon.Signature{}, false, fmt.Errorf("unknown provider %q", mod)
	}
	d, ok := p.coreInsts[k].compiled.ExportedFunctions()[name]
	if !ok {
		return canon.Signature{}, false, fmt.Errorf("the supplied instance's export %q is not a function", name)
	}
	return sigOf(d), true, nil
}

func (p *plan) checkCore(c coreCheck) error {
	if c.sort != ast.SortCoreFunc && c.sort != ast.SortCoreMemory {
		return nil
	}
	if c.item.inst == hostInst {
		if c.sort != ast.SortCoreFunc {
			return validate.Invalid(c.rule, c.off, "%s: a function is not a %s", c.what, c.sort)
		}
		if c.sig == nil {
			return nil
		}
		if got := p.hostFuncs[c.item.host].sig(); !sigEqual(got, *c.sig) {
			return validate.Invalid(c.rule, c.off, "%s has type %s, want %s", c.what, sigString(got), sigString(*c.sig))
		}
		return nil
	}
	m := p.coreInsts[c.item.inst].compiled
	if c.sort == ast.SortCoreMemory {
		if _, ok := m.ExportedMemories()[c.item.name]; !ok {
			return validate.Invalid(c.rule, c.off, "%s: core export %q is not a memory", c.what, c.item.name)
		}
		return nil
	}
	d, ok := m.ExportedFunctions()[c.item.name]
	if !ok {
		return validate.Invalid(c.rule, c.off, "%s: core export %q is not a function", c.what, c.item.name)
	}
	if c.sig == nil {
		return nil
	}
	if got := sigOf(d); !sigEqual(got, *c.sig) {
		return validate.Invalid(c.rule, c.off, "%s has type %s, want %s", c.what, sigString(got), sigString(*c.sig))
	}
	return nil
}
