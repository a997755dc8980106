package plan

import (
	"github.com/mur-go/mur/engine/canon"
	"github.com/mur-go/mur/engine/component/internal/validate"
	"github.com/mur-go/mur/engine/wit"
)

// flatCount is the number of core values t flattens to (flatten_type).
func flatCount(t wit.Type) int {
	switch t := t.(type) {
	case nil:
		return 0
	case *wit.List, *wit.Map:
		return 2
	case *wit.FixedList:
		// Validation bounds the list below 2^28 bytes, and each core value
		// stands for at least one byte, so this does not overflow.
		return int(t.Len) * flatCount(t.Elem)
	case *wit.Record:
		n := 0
		for _, f := range t.Fields {
			n += flatCount(f.Type)
		}
		return n
	case *wit.Tuple:
		n := 0
		for _, e := range t.Types {
			n += flatCount(e)
		}
		return n
	case *wit.Variant:
		n := 0
		for _, c := range t.Cases {
			n = max(n, flatCount(c.Type))
		}
		return 1 + n
	case *wit.Option:
		return 1 + flatCount(t.Elem)
	case *wit.Result:
		return 1 + max(flatCount(t.OK), flatCount(t.Err))
	case *wit.Flags:
		return (len(t.Names) + 31) / 32
	}
	if t.Kind() == wit.KindString {
		return 2
	}
	return 1
}

// allocates reports whether passing t needs memory allocated by the
// receiving side: it contains a string or a list.
func allocates(t wit.Type) bool {
	switch t := t.(type) {
	case nil:
		return false
	case *wit.List, *wit.Map:
		return true
	case *wit.FixedList:
		return allocates(t.Elem)
	case *wit.Record:
		for _, f := range t.Fields {
			if allocates(f.Type) {
				return true
			}
		}
	case *wit.Tuple:
		for _, e := range t.Types {
			if allocates(e) {
				return true
			}
		}
	case *wit.Variant:
		for _, c := range t.Cases {
			if allocates(c.Type) {
				return true
			}
		}
	case *wit.Option:
		return allocates(t.Elem)
	case *wit.Result:
		return allocates(t.OK) || allocates(t.Err)
	}
	return t.Kind() == wit.KindString
}

// abiNeeds says which canonical options a function type needs: memory
// whenever a value passes through linear memory, realloc when the core
// side receives a string, list or spilled parameters it must allocate.
// lift: the core side is the callee (it receives the parameters);
// otherwise (lower) it is the caller (it receives the result).
func abiNeeds(ft *wit.Func, lift bool) (memory, realloc bool) {
	paramFlat, paramsAlloc := 0, false
	for _, p := range ft.Params {
		paramFlat += flatCount(p.Type)
		paramsAlloc = paramsAlloc || allocates(p.Type)
	}
	paramsSpill := paramFlat > canon.MaxFlatParams
	resultSpill := flatCount(ft.Result) > canon.MaxFlatResults
	memory = paramsAlloc || paramsSpill || resultSpill || allocates(ft.Result)
	if lift {
		return memory, paramsAlloc || paramsSpill
	}
	return memory, allocates(ft.Result)
}

// checkCanonOptions checks that a lift or lower has the options its
// function type needs.
func checkCanonOptions(ft *wit.Func, o CanonOpts, lift bool, off int) error {
	what := "canon lower"
	if lift {
		what = "canon lift"
	}
	memory, realloc := abiNeeds(ft, lift)
	if memory && o.Memory == nil {
		return validate.Invalid(validate.RuleCanonMemory, off, "%s: the function passes values through linear memory, so the memory option is required", what)
	}
	if realloc && o.Realloc == nil {
		return validate.Invalid(validate.RuleCanonRealloc, off, "%s: the %s side receives strings, lists or spilled values, so the realloc option is required", what, "core")
	}
	return nil
}
