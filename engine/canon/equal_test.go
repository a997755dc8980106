package canon

import (
	"bytes"
	"math"

	"github.com/mur-go/mur/engine/wit"
)

// equal compares a value as the host gave it with the value lifted back:
// deep equality, except that any NaN equals the canonical NaN (lifting
// canonicalizes) and nil and empty list<u8> are equal.
func equal(t *Type, a, b any) bool {
	switch t.kind {
	case wit.KindF32:
		x, y := a.(float32), b.(float32)
		if x != x {
			return math.Float32bits(y) == canonicalNaN32
		}
		return math.Float32bits(x) == math.Float32bits(y)
	case wit.KindF64:
		x, y := a.(float64), b.(float64)
		if x != x {
			return math.Float64bits(y) == canonicalNaN64
		}
		return math.Float64bits(x) == math.Float64bits(y)
	case wit.KindList:
		if t.elem.kind == wit.KindU8 {
			x, ok1 := a.([]byte)
			y, ok2 := b.([]byte)
			return ok1 && ok2 && bytes.Equal(x, y)
		}
		x, ok1 := a.([]any)
		y, ok2 := b.([]any)
		if !ok1 || !ok2 || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equal(t.elem, x[i], y[i]) {
				return false
			}
		}
		return true
	case wit.KindFixedList:
		x, ok1 := a.([]any)
		y, ok2 := b.([]any)
		if !ok1 || !ok2 || len(x) != int(t.n) || len(y) != int(t.n) {
			return false
		}
		for i := range x {
			if !equal(t.elem, x[i], y[i]) {
				return false
			}
		}
		return true
	case wit.KindMap:
		x, ok1 := a.([]wit.MapEntry)
		y, ok2 := b.([]wit.MapEntry)
		if !ok1 || !ok2 || len(x) != len(y) {
			return false
		}
		k, v := t.elem.fields[0].t, t.elem.fields[1].t
		for i := range x {
			if !equal(k, x[i].Key, y[i].Key) || !equal(v, x[i].Value, y[i].Value) {
				return false
			}
		}
		return true
	case wit.KindRecord, wit.KindTuple:
		x, ok1 := a.([]any)
		y, ok2 := b.([]any)
		if !ok1 || !ok2 || len(x) != len(t.fields) || len(y) != len(t.fields) {
			return false
		}
		for i, f := range t.fields {
			if !equal(f.t, x[i], y[i]) {
				return false
			}
		}
		return true
	case wit.KindVariant, wit.KindOption, wit.KindResult:
		da, pa, err1 := caseOf(t, a)
		db, pb, err2 := caseOf(t, b)
		if err1 != nil || err2 != nil || da != db {
			return false
		}
		if ct := t.cases[da]; ct != nil {
			return equal(ct, pa, pb)
		}
		return pa == nil && pb == nil
	}
	return a == b
}
