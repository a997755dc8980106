package plan

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/mur-go/mur/engine/canon"
	"github.com/mur-go/mur/engine/component/internal/ast"
	"github.com/mur-go/mur/engine/component/internal/coremod"
	"github.com/mur-go/mur/engine/component/internal/validate"
	"github.com/mur-go/mur/engine/wit"
)

// Bounds on what elaboration may expand to, so a small hostile binary that
// instantiates nested components many times over cannot blow up.
const (
	maxNesting   = 100
	maxPlanInsts = 10_000
	maxPlanFuncs = 1_000_000
	maxCoreInsts = 10_000
	maxCompInsts = 10_000
	maxTypeNodes = 1_000_000
	maxTypeDepth = 100
)

// scope holds the index spaces of one component (or component/instance
// type) while its definitions are walked.
type scope struct {
	outer *scope
	depth int
	// args supply a nested component's imports; nil at the root.
	args     map[string]Item
	root     bool
	compInst int

	coreFuncs, coreTables, coreMems, coreGlobals, coreTags []CoreItem
	coreTypes                                              []ast.CoreTypeDef
	coreModules                                            []*ast.CoreModule
	coreInstances                                          []coreInstance

	funcs      []*Func
	types      []typeItem
	components []*componentDef
	instances  []*InstanceVal

	exports *InstanceVal
	// resImps and resExps name the resources imported and exported so far,
	// for [constructor]/[method] names (resolved.go).
	resImps, resExps resourceNames
	// External visibility (visibility.go): the type and instance indices
	// an import, export or named alias introduced, and the types imports
	// and exports made visible. compType: the declarators of a component
	// type, checked as they come.
	named, namedInst map[int]bool
	visImp, visExp   map[any]bool
	compType         bool
}

// resources returns the scope's imported or exported resources by name.
func (s *scope) resources(imports bool) resourceNames {
	if s.resImps == nil {
		s.resImps, s.resExps = resourceNames{}, resourceNames{}
	}
	if imports {
		return s.resImps
	}
	return s.resExps
}

type elaborator struct {
	p         *Plan
	typeNodes int
	// handleNamed holds the own and borrow types made from a type index
	// that an import, export or named alias introduced (visibility.go).
	handleNamed map[any]bool
	// spent is shared with the check-only elaborations of nested
	// components that are never instantiated, so the caps bound all.
	spent *spent
	// checkOnly: this elaborates a never-instantiated component only to
	// validate it; its plan is thrown away, so core modules are not
	// rewritten.
	checkOnly bool
	// modules are the host's core modules for the root's core-module
	// imports, by import name.
	modules map[string]*ast.CoreModule
	// memo keeps rewritten core modules across processes, or is nil.
	memo Memo
	// rw chooses among the rewrites.
	rw Rewrites
}

// spent counts what elaboration has expanded to.
type spent struct{ coreInsts, compInsts, funcs int }

// Elaborate flattens a decoded component into a plan. A root that imports
// core modules needs them, from the host, for a plan that can run; without
// them (modules nil) it is elaborated check-only.
func Elaborate(c *ast.Component, modules map[string]*ast.CoreModule) (*Plan, error) {
	return ElaborateMemo(c, modules, nil)
}

// ElaborateMemo is Elaborate taking rewritten core modules from memo
// (and keeping those it rewrites there) when memo is not nil.
func ElaborateMemo(c *ast.Component, modules map[string]*ast.CoreModule, memo Memo) (*Plan, error) {
	return ElaborateWith(c, modules, memo, Rewrites{})
}

// Rewrites chooses among the rewrites of the plan's core modules.
type Rewrites struct {
	// CompiledInterrupts leaves out coremod.AddInterruptChecks: the
	// engine's compiler counts loop iterations itself, after register
	// allocation, where the checks cost the loops no spills
	// (wazero.LoopYieldSupported).
	CompiledInterrupts bool
}

// ElaborateWith is ElaborateMemo with the rewrites rw chooses.
func ElaborateWith(c *ast.Component, modules map[string]*ast.CoreModule, memo Memo, rw Rewrites) (*Plan, error) {
	e := &elaborator{p: New(), handleNamed: map[any]bool{}, spent: &spent{}, modules: modules, memo: memo, rw: rw}
	e.checkOnly = modules == nil && ImportsModules(c)
	root := &scope{root: true, exports: newInstanceVal()}
	if err := e.walk(root, c); err != nil {
		return nil, err
	}
	for _, name := range root.exports.Names {
		e.p.Exports = append(e.p.Exports, NamedItem{name, root.exports.Exports[name]})
	}
	return e.p, nil
}

// New returns an empty plan.
func New() *Plan {
	return &Plan{Resources: map[*wit.ResourceType]*ResourceDef{}, CompInsts: 1}
}

func defError(d ast.Def, format string, args ...any) error {
	return fmt.Errorf("component: %s (at byte offset %#x)", fmt.Sprintf(format, args...), ast.DefOffset(d))
}

func (e *elaborator) walk(s *scope, c *ast.Component) error {
	if s.depth > maxNesting {
		return fmt.Errorf("component: nesting deeper than %d", maxNesting)
	}
	for _, d := range c.Defs {
		if err := e.def(s, d); err != nil {
			return err
		}
	}
	for _, cd := range s.components {
		if err := e.checkUninstantiated(s, cd); err != nil {
			return err
		}
	}
	return nil
}

// checkUninstantiated validates a nested component that was never
// instantiated as if it were a root (its imports left open), in a plan that
// is then dropped: the rules that need resolved types apply to it too.
// (The core-type checks that need compiled modules do not.)
func (e *elaborator) checkUninstantiated(s *scope, cd *componentDef) error {
	if cd == nil || cd.instantiated || cd.checked {
		return nil
	}
	cd.checked = true
	sub := &elaborator{p: New(), typeNodes: e.typeNodes, handleNamed: e.handleNamed, spent: e.spent, checkOnly: true}
	err := sub.walk(&scope{outer: cd.outer, depth: s.depth + 1, root: true, exports: newInstanceVal()}, cd.ast)
	e.typeNodes = sub.typeNodes
	return err
}

func (e *elaborator) def(s *scope, d ast.Def) error {
	switch d := d.(type) {
	case *ast.CoreModule:
		s.coreModules = append(s.coreModules, d)
	case *ast.CoreInstantiate:
		return e.coreInstantiate(s, d)
	case *ast.CoreInstanceExports:
		bag := make(map[string]CoreItem, len(d.Exports))
		for _, ex := range d.Exports {
			it, err := s.coreItem(ex.Sort, ex.Idx)
			if err != nil {
				return defError(d, "core instance export %q: %v", ex.Name, err)
			}
			bag[ex.Name] = it
		}
		s.coreInstances = append(s.coreInstances, coreInstance{bag: bag})
	case *ast.CoreType:
		s.coreTypes = append(s.coreTypes, d.Type)
	case *ast.NestedComponent:
		s.components = append(s.components, &componentDef{ast: d.Component, outer: s})
	case *ast.Instantiate:
		return e.instantiate(s, d)
	case *ast.InstanceExports:
		v := newInstanceVal()
		for _, ex := range d.Exports {
			it, err := s.item(ex.Sort, ex.Idx)
			if err != nil {
				return defError(d, "instance export %q: %v", ex.Name, err)
			}
			nameType(it, ex.Name)
			v.add(ex.Name, it)
		}
		s.instances = append(s.instances, v)
	case *ast.Alias:
		return e.alias(s, d)
	case *ast.Type:
		t, err := e.typeDef(s, d.Type)
		if ke := (*kindError)(nil); errors.As(err, &ke) {
			return validate.DefInvalid(d, ke.rule, "type %d: %v", len(s.types), err)
		}
		if err != nil {
			return defError(d, "type %d: %v", len(s.types), err)
		}
		if rt, ok := t.(*wit.ResourceType); ok {
			if err := e.defineResource(s, d.Type.(*ast.ResourceType), rt, d.Offset); err != nil {
				return defError(d, "%v", err)
			}
		}
		s.types = append(s.types, t)
	case *ast.Canon:
		return e.canon(s, d)
	case *ast.Start:
		if int(d.FuncIdx) >= len(s.funcs) {
			return defError(d, "start: func index %d out of range", d.FuncIdx)
		}
		fn := s.funcs[d.FuncIdx]
		if len(fn.Type.Params) != 0 || fn.Type.Result != nil {
			return defError(d, "start functions with arguments or results are not supported")
		}
		e.p.Steps = append(e.p.Steps, Step{Kind: StepStart, Func: fn})
	case *ast.Import:
		return e.importDef(s, d)
	case *ast.Export:
		it, err := s.item(d.Sort, d.Idx)
		if err != nil {
			return defError(d, "export %q: %v", d.Name, err)
		}
		if d.Desc != nil && d.Desc.Kind == ast.ExternFunc && it.Sort == ast.SortFunc {
			// An ascribed type is the one the exporter names its types in
			// (wit-component re-types exports with the interface's named
			// types); the function itself is unchanged.
			ft, err := s.funcType(d.Desc.TypeIdx)
			if err != nil {
				return defError(d, "export %q: %v", d.Name, err)
			}
			if err := FuncTypesMatch(it.Func.Type, ft, nil); err != nil {
				return validate.DefInvalid(d, validate.RuleAscription, "export %q: the ascribed function type does not match the function's: %v", d.Name, err)
			}
			view := *it.Func
			view.Type = ft
			it.Func = &view
		}
		if d.Desc != nil && d.Desc.Kind != ast.ExternFunc {
			declared, err := e.externDesc(s, d.Name, *d.Desc)
			if err != nil {
				return defError(d, "export %q: %v", d.Name, err)
			}
			if d.Desc.Kind == ast.ExternType && d.Desc.Bound == ast.BoundSubResource {
				if _, ok := it.typ.(*wit.ResourceType); !ok {
					return validate.DefInvalid(d, validate.RuleAscription, "export %q: ascribed (sub resource) but it is not a resource type", d.Name)
				}
				// The ascription hides the resource: what is exported is a
				// new abstract resource type, unequal to every other.
				it.typ = declared
			} else if err := checkFits(validate.RuleAscription, fmt.Sprintf("export %q", d.Name), declared, it, d.Offset); err != nil {
				return err
			}
			// An instance ascribed a type is exported as that type says:
			// what it does not declare is not there.
			if itype, ok := declared.(*instanceType); ok && it.Sort == ast.SortInstance {
				view := newInstanceVal()
				for _, ex := range itype.exports {
					view.add(ex.name, it.Inst.Exports[ex.name])
				}
				it.Inst = view
			}
		}
		if it.Sort == ast.SortType {
			it.typ = nominal(it.typ)
		}
		nameType(it, d.Name)
		if err := e.checkExtern(s, d.Name, it, false, d.Offset); err != nil {
			return err
		}
		s.exports.add(d.Name, it)
		s.nameIndex(it.Sort)
		return s.push(it)
	default:
		return fmt.Errorf("component: unexpected definition %T", d)
	}
	return nil
}

// nameType records the exported name of a value or resource type, so WIT
// printing refers to it by name.
func nameType(it Item, name string) {
	if it.Sort != ast.SortType {
		return
	}
	switch t := it.typ.(type) {
	case *wit.ResourceType:
		if t.Name == "" {
			t.Name = name
		}
	case wit.Type:
		setTypeName(t, name)
	}
}

// push appends an item to the index space of its sort.
func (s *scope) push(it Item) error {
	switch it.Sort {
	case ast.SortFunc:
		s.funcs = append(s.funcs, it.Func)
	case ast.SortType:
		s.types = append(s.types, it.typ)
	case ast.SortInstance:
		s.instances = append(s.instances, it.Inst)
	case ast.SortComponent:
		s.components = append(s.components, it.comp)
	case ast.SortCoreModule:
		s.coreModules = append(s.coreModules, it.mod)
	default:
		return fmt.Errorf("component: cannot add a %s item", it.Sort)
	}
	return nil
}

// item returns entry idx of a component-level index space.
func (s *scope) item(sort ast.Sort, idx uint32) (Item, error) {
	i := int(idx)
	bad := func(n int) (Item, error) {
		return Item{}, fmt.Errorf("%s index %d out of range (%d defined)", sort, idx, n)
	}
	switch sort {
	case ast.SortFunc:
		if i >= len(s.funcs) {
			return bad(len(s.funcs))
		}
		return Item{Sort: sort, Func: s.funcs[i]}, nil
	case ast.SortType:
		if i >= len(s.types) {
			return bad(len(s.types))
		}
		return Item{Sort: sort, typ: s.types[i]}, nil
	case ast.SortInstance:
		if i >= len(s.instances) {
			return bad(len(s.instances))
		}
		return Item{Sort: sort, Inst: s.instances[i]}, nil
	case ast.SortComponent:
		if i >= len(s.components) {
			return bad(len(s.components))
		}
		return Item{Sort: sort, comp: s.components[i]}, nil
	case ast.SortCoreModule:
		if i >= len(s.coreModules) {
			return bad(len(s.coreModules))
		}
		return Item{Sort: sort, mod: s.coreModules[i]}, nil
	}
	return Item{}, fmt.Errorf("%s items cannot be used here", sort)
}

// coreItem returns entry idx of a core func/table/memory/global index space.
func (s *scope) coreItem(sort ast.Sort, idx uint32) (CoreItem, error) {
	var space []CoreItem
	switch sort {
	case ast.SortCoreFunc:
		space = s.coreFuncs
	case ast.SortCoreTable:
		space = s.coreTables
	case ast.SortCoreMemory:
		space = s.coreMems
	case ast.SortCoreGlobal:
		space = s.coreGlobals
	case ast.SortCoreTag:
		space = s.coreTags
	default:
		return CoreItem{}, fmt.Errorf("%s items cannot be used here", sort)
	}
	if int(idx) >= len(space) {
		return CoreItem{}, fmt.Errorf("%s index %d out of range (%d defined)", sort, idx, len(space))
	}
	return space[idx], nil
}

func (s *scope) pushCore(sort ast.Sort, it CoreItem) error {
	switch sort {
	case ast.SortCoreFunc:
		s.coreFuncs = append(s.coreFuncs, it)
	case ast.SortCoreTable:
		s.coreTables = append(s.coreTables, it)
	case ast.SortCoreMemory:
		s.coreMems = append(s.coreMems, it)
	case ast.SortCoreGlobal:
		s.coreGlobals = append(s.coreGlobals, it)
	case ast.SortCoreTag:
		s.coreTags = append(s.coreTags, it)
	default:
		return fmt.Errorf("cannot alias a %s from a core instance", sort)
	}
	return nil
}

func (e *elaborator) coreInstantiate(s *scope, d *ast.CoreInstantiate) error {
	if int(d.ModuleIdx) >= len(s.coreModules) {
		return defError(d, "core module index %d out of range", d.ModuleIdx)
	}
	if e.spent.coreInsts >= maxCoreInsts {
		return defError(d, "more than %d core instances", maxCoreInsts)
	}
	e.spent.coreInsts++
	mod := s.coreModules[d.ModuleIdx]
	if mod.Bytes == nil {
		// An imported module of a component elaborated check-only: nothing
		// is known of it to check its arguments against.
		s.coreInstances = append(s.coreInstances, coreInstance{rt: len(e.p.CoreInsts)})
		e.p.CoreInsts = append(e.p.CoreInsts, &CoreInst{Source: mod, offset: d.Offset})
		return nil
	}
	args := make(map[string]coreInstance, len(d.Args))
	for _, a := range d.Args {
		if int(a.InstanceIdx) >= len(s.coreInstances) {
			return defError(d, "instantiate arg %q: core instance index %d out of range", a.Name, a.InstanceIdx)
		}
		args[a.Name] = s.coreInstances[a.InstanceIdx]
	}
	imps, err := coremod.Imports(mod.Bytes)
	if err != nil {
		return defError(d, "%v", err)
	}
	renamed := make([][2]string, len(imps))
	for i, imp := range imps {
		arg, ok := args[imp.Module]
		if !ok {
			return validate.DefInvalid(d, validate.RuleCoreInstantiate, "core module imports %q but no instance is supplied for it", imp.Module)
		}
		it, ok := arg.export(imp.Name)
		if !ok {
			return validate.DefInvalid(d, validate.RuleCoreInstantiate, "core module imports %q %q, which the supplied instance does not export", imp.Module, imp.Name)
		}
		if it.Inst == HostInst {
			if imp.Kind != coremod.KindFunc {
				return validate.DefInvalid(d, validate.RuleCoreImportType, "core import %q %q: a %s cannot be satisfied by a function", imp.Module, imp.Name, imp.Kind)
			}
			renamed[i] = [2]string{HostModule, HostFuncName(it.Host)}
		} else {
			renamed[i] = [2]string{coreInstName(it.Inst), it.Name}
		}
	}
	if e.checkOnly {
		s.coreInstances = append(s.coreInstances, coreInstance{rt: len(e.p.CoreInsts)})
		e.p.CoreInsts = append(e.p.CoreInsts, &CoreInst{Source: mod, offset: d.Offset})
		return nil
	}
	r, err := rewrite(e.memo, mod.Bytes, renamed, e.rw)
	if err != nil {
		return defError(d, "%v", err)
	}
	idx := len(e.p.CoreInsts)
	e.p.CoreInsts = append(e.p.CoreInsts, &CoreInst{Source: mod, offset: d.Offset, Bytes: r.bytes, Digest: r.digest, Shared: r.memoized, minMemory: r.pages << 16, Interruptible: r.interruptible, State: r.state})
	e.p.MinMemory += r.pages << 16
	e.p.MinTable = max(e.p.MinTable, r.tableMin)
	e.p.GrowsTables = e.p.GrowsTables || r.grows
	e.p.Steps = append(e.p.Steps, Step{Kind: StepCoreInstance, Core: idx})
	s.coreInstances = append(s.coreInstances, coreInstance{rt: idx})
	return nil
}

// Module names the resolver understands: instances by number, the host.
// The host module also exports the loops' yield function.
const (
	HostModule = "$host"
	YieldFunc  = "yield"
)

func coreInstName(i int) string { return "$" + strconv.Itoa(i) }

// HostFuncName is the host module's export name of host function i.
func HostFuncName(i int) string { return strconv.Itoa(i) }

func (e *elaborator) instantiate(s *scope, d *ast.Instantiate) error {
	if int(d.ComponentIdx) >= len(s.components) {
		return defError(d, "component index %d out of range", d.ComponentIdx)
	}
	if e.spent.compInsts+1 >= maxCompInsts {
		return defError(d, "more than %d component instances", maxCompInsts)
	}
	e.spent.compInsts++
	cd := s.components[d.ComponentIdx]
	cd.instantiated = true
	args := make(map[string]Item, len(d.Args))
	for _, a := range d.Args {
		it, err := s.item(a.Sort, a.Idx)
		if err != nil {
			return defError(d, "instantiate arg %q: %v", a.Name, err)
		}
		args[a.Name] = it
	}
	if cd.abstract != nil {
		return e.instantiateAbstract(s, d, cd.abstract, args)
	}
	inner := &scope{outer: cd.outer, depth: s.depth + 1, args: args, compInst: e.p.CompInsts, exports: newInstanceVal()}
	e.p.CompInsts++
	if err := e.walk(inner, cd.ast); err != nil {
		return err
	}
	s.instances = append(s.instances, inner.exports)
	return nil
}

func (e *elaborator) alias(s *scope, d *ast.Alias) error {
	switch d.Kind {
	case ast.AliasInstanceExport:
		if int(d.InstanceIdx) >= len(s.instances) {
			return defError(d, "alias: instance index %d out of range", d.InstanceIdx)
		}
		it, ok := s.instances[d.InstanceIdx].Exports[d.Name]
		if !ok {
			return validate.DefInvalid(d, validate.RuleAliasExport, "alias: instance %d has no export %q", d.InstanceIdx, d.Name)
		}
		if it.Sort != d.Sort {
			return validate.DefInvalid(d, validate.RuleAliasExport, "alias: export %q is a %s, not a %s", d.Name, it.Sort, d.Sort)
		}
		if s.namedInst[int(d.InstanceIdx)] {
			s.nameIndex(it.Sort)
		}
		return s.push(it)
	case ast.AliasCoreInstanceExport:
		if int(d.InstanceIdx) >= len(s.coreInstances) {
			return defError(d, "alias: core instance index %d out of range", d.InstanceIdx)
		}
		it, ok := s.coreInstances[d.InstanceIdx].export(d.Name)
		if !ok {
			return defError(d, "alias: core instance %d has no export %q", d.InstanceIdx, d.Name)
		}
		if it.Inst == HostInst && d.Sort != ast.SortCoreFunc {
			return validate.DefInvalid(d, validate.RuleAliasCoreExport, "alias: export %q is a function, not a %s", d.Name, d.Sort)
		}
		e.p.requireSort(it, d.Sort, validate.RuleAliasCoreExport, fmt.Sprintf("alias of core export %q", d.Name), d.Offset)
		if err := s.pushCore(d.Sort, it); err != nil {
			return defError(d, "alias: %v", err)
		}
		return nil
	case ast.AliasOuter:
		o := s
		for range d.Count {
			if o.outer == nil {
				return defError(d, "outer alias: count %d reaches past the root", d.Count)
			}
			o = o.outer
		}
		if d.Sort == ast.SortCoreType {
			if int(d.Idx) >= len(o.coreTypes) {
				return defError(d, "outer alias: core type index %d out of range", d.Idx)
			}
			s.coreTypes = append(s.coreTypes, o.coreTypes[d.Idx])
			return nil
		}
		it, err := o.item(d.Sort, d.Idx)
		if err != nil {
			return defError(d, "outer alias: %v", err)
		}
		if d.Sort == ast.SortType && o.named[int(d.Idx)] {
			s.nameIndex(d.Sort) // an alias is the same type index, named or not
		}
		return s.push(it)
	}
	return defError(d, "unknown alias kind %d", d.Kind)
}

func (e *elaborator) canon(s *scope, d *ast.Canon) error {
	switch d.Kind {
	case ast.CanonLift:
		core, err := s.coreItem(ast.SortCoreFunc, d.FuncIdx)
		if err != nil {
			return defError(d, "canon lift: %v", err)
		}
		if int(d.TypeIdx) >= len(s.types) {
			return defError(d, "canon lift: type index %d out of range", d.TypeIdx)
		}
		ft, ok := s.types[d.TypeIdx].(*wit.Func)
		if !ok {
			return validate.DefInvalid(d, validate.RuleIndexSort, "canon lift: type %d is not a function type", d.TypeIdx)
		}
		opts, err := s.canonOpts(d.Options)
		if err != nil {
			return defError(d, "canon lift: %v", err)
		}
		fn, err := e.newFunc(ft)
		if err != nil {
			return defError(d, "canon lift: %v", err)
		}
		if err := e.checkCanon(ft, opts, true, d.Offset); err != nil {
			return err
		}
		e.p.requireFunc(core, fn.ABI.LiftSignature(), validate.RuleCanonSignature, "canon lift: the lifted core function", d.Offset)
		if opts.PostReturn != nil {
			sig := canon.Signature{Params: fn.ABI.LiftSignature().Results}
			e.p.requireFunc(*opts.PostReturn, sig, validate.RuleCanonPostReturnType, "canon lift: post-return", d.Offset)
		}
		fn.Core, fn.Opts, fn.CompInst = core, opts, s.compInst
		s.funcs = append(s.funcs, fn)
	case ast.CanonLower:
		if int(d.FuncIdx) >= len(s.funcs) {
			return defError(d, "canon lower: func index %d out of range", d.FuncIdx)
		}
		opts, err := s.canonOpts(d.Options)
		if err != nil {
			return defError(d, "canon lower: %v", err)
		}
		if err := e.checkCanon(s.funcs[d.FuncIdx].Type, opts, false, d.Offset); err != nil {
			return err
		}
		e.addHostFunc(s, &HostFunc{Kind: HostLower, CompInst: s.compInst, Target: s.funcs[d.FuncIdx], Opts: opts})
	case ast.CanonResourceNew, ast.CanonResourceDrop, ast.CanonResourceRep:
		if int(d.TypeIdx) >= len(s.types) {
			return defError(d, "canon %s: type index %d out of range", d.Kind, d.TypeIdx)
		}
		rt, ok := s.types[d.TypeIdx].(*wit.ResourceType)
		if !ok {
			return validate.DefInvalid(d, validate.RuleIndexSort, "canon %s: type %d is not a resource type", d.Kind, d.TypeIdx)
		}
		kind := HostResourceNew
		switch d.Kind {
		case ast.CanonResourceDrop:
			kind = HostResourceDrop
		case ast.CanonResourceRep:
			kind = HostResourceRep
		}
		if kind != HostResourceDrop {
			if def, local := e.p.Resources[rt]; !local || def.CompInst != s.compInst {
				return validate.DefInvalid(d, validate.RuleResourceLocal, "canon %s: resource type %d is not defined by this component", d.Kind, d.TypeIdx)
			}
		}
		e.addHostFunc(s, &HostFunc{Kind: kind, CompInst: s.compInst, Resource: rt})
	default:
		return defError(d, "unknown canon kind %d", d.Kind)
	}
	return nil
}

func (e *elaborator) addHostFunc(s *scope, h *HostFunc) {
	e.p.HostFuncs = append(e.p.HostFuncs, h)
	s.coreFuncs = append(s.coreFuncs, CoreItem{Inst: HostInst, Host: len(e.p.HostFuncs) - 1})
}

func (e *elaborator) newFunc(ft *wit.Func) (*Func, error) {
	if e.spent.funcs >= maxPlanFuncs {
		return nil, fmt.Errorf("more than %d functions", maxPlanFuncs)
	}
	e.spent.funcs++
	abi, err := canon.NewFunc(ft)
	if err != nil {
		return nil, err
	}
	fn := &Func{ID: len(e.p.Funcs), Type: ft, ABI: abi}
	e.p.Funcs = append(e.p.Funcs, fn)
	return fn, nil
}

func (s *scope) canonOpts(o ast.CanonOptions) (CanonOpts, error) {
	var c CanonOpts
	switch o.StringEncoding {
	case ast.StringUTF8:
		c.Encoding = canon.UTF8
	case ast.StringUTF16:
		c.Encoding = canon.UTF16
	case ast.StringLatin1UTF16:
		c.Encoding = canon.Latin1UTF16
	}
	get := func(sort ast.Sort, idx *uint32) (*CoreItem, error) {
		if idx == nil {
			return nil, nil
		}
		it, err := s.coreItem(sort, *idx)
		if err != nil {
			return nil, err
		}
		return &it, nil
	}
	var err error
	if c.Memory, err = get(ast.SortCoreMemory, o.Memory); err != nil {
		return c, fmt.Errorf("memory option: %w", err)
	}
	if c.Realloc, err = get(ast.SortCoreFunc, o.Realloc); err != nil {
		return c, fmt.Errorf("realloc option: %w", err)
	}
	if c.PostReturn, err = get(ast.SortCoreFunc, o.PostReturn); err != nil {
		return c, fmt.Errorf("post-return option: %w", err)
	}
	return c, nil
}

func (e *elaborator) defineResource(s *scope, d *ast.ResourceType, rt *wit.ResourceType, off int) error {
	def := &ResourceDef{CompInst: s.compInst}
	if d.Dtor != nil {
		it, err := s.coreItem(ast.SortCoreFunc, *d.Dtor)
		if err != nil {
			return fmt.Errorf("resource destructor: %w", err)
		}
		def.Dtor = &it
		e.p.requireFunc(it, sigDtor, validate.RuleResourceDtorType, "resource destructor", off)
	}
	e.p.Resources[rt] = def
	return nil
}

// importDef binds an import: at the root it becomes an open import the
// linker satisfies; in a nested component it takes the instantiation arg.
func (e *elaborator) importDef(s *scope, d *ast.Import) error {
	if !s.root {
		it, ok := s.args[d.Name]
		if !ok {
			return validate.DefInvalid(d, validate.RuleArgMissing, "nested component import %q has no instantiation argument", d.Name)
		}
		if it.Sort != d.Desc.Sort() {
			return validate.DefInvalid(d, validate.RuleArgType, "nested component import %q: argument is a %s, want a %s", d.Name, it.Sort, d.Desc.Sort())
		}
		if err := checkModuleArg(s, d, it); err != nil {
			return err
		}
		declared, err := e.externDesc(s, d.Name, d.Desc)
		if err != nil {
			return defError(d, "import %q: %v", d.Name, err)
		}
		if _, fresh := declared.(*wit.ResourceType); fresh && d.Desc.Bound == ast.BoundSubResource {
			if _, ok := it.typ.(*wit.ResourceType); !ok {
				return validate.DefInvalid(d, validate.RuleArgType, "nested component import %q: argument is not a resource type", d.Name)
			}
		} else if err := checkFits(validate.RuleArgType, fmt.Sprintf("instantiate argument %q", d.Name), declared, it, d.Offset); err != nil {
			return err
		}
		// Visibility is the import's, as declared; the argument's types
		// are what later aliases of it resolve to, so they are visible too.
		view := it
		switch dt := declared.(type) {
		case *wit.Func:
			view.Func = &Func{Type: dt}
		case *instanceType:
			view.Inst = instanceView(dt)
			s.registerInstance(it.Inst, true, 0)
		case *wit.ResourceType:
		case nil:
		default:
			// Instantiation substitutes the argument for the import: the
			// import's index holds the argument's type itself.
			view.typ = dt
			s.markVisible(it.typ, true)
		}
		if err := e.checkExtern(s, d.Name, view, true, d.Offset); err != nil {
			return err
		}
		s.nameIndex(it.Sort)
		return s.push(it)
	}
	it, err := e.rootImport(s, d)
	if err != nil {
		return defError(d, "import %q: %v", d.Name, err)
	}
	if err := e.checkExtern(s, d.Name, it, true, d.Offset); err != nil {
		return err
	}
	e.p.Imports = append(e.p.Imports, Import{Name: d.Name, Item: it})
	s.nameIndex(it.Sort)
	return s.push(it)
}

func (e *elaborator) rootImport(s *scope, d *ast.Import) (Item, error) {
	switch d.Desc.Kind {
	case ast.ExternFunc:
		ft, err := s.funcType(d.Desc.TypeIdx)
		if err != nil {
			return Item{}, err
		}
		fn, err := e.newFunc(ft)
		if err != nil {
			return Item{}, err
		}
		fn.Imported, fn.Name = true, d.Name
		return Item{Sort: ast.SortFunc, Func: fn}, nil
	case ast.ExternInstance:
		if int(d.Desc.TypeIdx) >= len(s.types) {
			return Item{}, fmt.Errorf("type index %d out of range", d.Desc.TypeIdx)
		}
		it, ok := s.types[d.Desc.TypeIdx].(*instanceType)
		if !ok {
			return Item{}, fmt.Errorf("type %d is not an instance type", d.Desc.TypeIdx)
		}
		v, err := e.importedInstance(d.Name, d.Attrs.Implements, it, false, 0)
		if err != nil {
			return Item{}, err
		}
		return Item{Sort: ast.SortInstance, Inst: v}, nil
	case ast.ExternCoreModule:
		return e.moduleImport(s, d)
	case ast.ExternComponent:
		if !e.checkOnly {
			break
		}
		if int(d.Desc.TypeIdx) >= len(s.types) {
			return Item{}, fmt.Errorf("type index %d out of range", d.Desc.TypeIdx)
		}
		return Item{Sort: ast.SortComponent, comp: abstractComponent(s.types[d.Desc.TypeIdx])}, nil
	case ast.ExternType:
		var t typeItem
		if d.Desc.Bound == ast.BoundSubResource {
			rt := &wit.ResourceType{Name: d.Name}
			e.p.ImportedResources = append(e.p.ImportedResources, ImportedResource{Name: d.Name, Type: rt})
			t = rt
		} else {
			if int(d.Desc.TypeIdx) >= len(s.types) {
				return Item{}, fmt.Errorf("type index %d out of range", d.Desc.TypeIdx)
			}
			t = nominal(s.types[d.Desc.TypeIdx])
		}
		return Item{Sort: ast.SortType, typ: t}, nil
	}
	return Item{}, fmt.Errorf("importing a %s is not supported; only functions, instances and types", d.Desc.Kind)
}

func (s *scope) funcType(idx uint32) (*wit.Func, error) {
	if int(idx) >= len(s.types) {
		return nil, fmt.Errorf("type index %d out of range", idx)
	}
	ft, ok := s.types[idx].(*wit.Func)
	if !ok {
		return nil, fmt.Errorf("type %d is not a function type", idx)
	}
	return ft, nil
}
