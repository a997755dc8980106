package validate

import (
	"github.com/mur-go/mur/engine/component/internal/ast"
)

// Rules about canonical definitions (CanonicalABI.md).
const (
	ruleCanonLowerPostReturn = "canon.post-return-lower" // post-return only applies to lift
	RuleCanonMemory          = "canon.memory"            // memory is given when values pass through memory
	RuleCanonRealloc         = "canon.realloc"           // realloc is given when the callee's side allocates
	RuleCanonSignature       = "canon.signature"         // a lifted core function has the flattened signature
	RuleCanonReallocType     = "canon.realloc-type"      // realloc is (i32 i32 i32 i32) -> i32
	RuleCanonPostReturnType  = "canon.post-return-type"  // post-return takes the lifted function's results
	RuleResourceDtorType     = "canon.dtor-type"         // a destructor is (i32) -> ()
	RuleResourceLocal        = "canon.resource-local"    // resource.new/rep only for resources the component defines
	RuleCoreImportType       = "core.import-type"        // a core import is given an item of its type
	RuleCoreInstantiate      = "core.instantiate-arg"    // every core import is supplied
	RuleAliasCoreExport      = "alias.core-export"       // an aliased core export exists with the sort named
)

func (s *vscope) canonOpts(o ast.CanonOptions, off int, what string) error {
	if o.Memory != nil {
		if err := s.idx(ast.SortCoreMemory, *o.Memory, off, what+" memory option"); err != nil {
			return err
		}
	}
	for _, f := range []*uint32{o.Realloc, o.PostReturn} {
		if f != nil {
			if err := s.idx(ast.SortCoreFunc, *f, off, what+" option"); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *vscope) canon(d *ast.Canon) error {
	switch d.Kind {
	case ast.CanonLift:
		if err := s.idx(ast.SortCoreFunc, d.FuncIdx, d.Offset, "canon lift"); err != nil {
			return err
		}
		if _, err := s.typeOf(d.TypeIdx, vkFunc, d.Offset, "canon lift"); err != nil {
			return err
		}
		return s.canonOpts(d.Options, d.Offset, "canon lift")
	case ast.CanonLower:
		if err := s.idx(ast.SortFunc, d.FuncIdx, d.Offset, "canon lower"); err != nil {
			return err
		}
		if d.Options.PostReturn != nil {
			return Invalid(ruleCanonLowerPostReturn, d.Offset, "canon lower: the post-return option only applies to canon lift")
		}
		return s.canonOpts(d.Options, d.Offset, "canon lower")
	default:
		_, err := s.typeOf(d.TypeIdx, vkResource, d.Offset, "canon "+d.Kind.String())
		return err
	}
}
