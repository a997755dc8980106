package canon

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/mur-go/mur/engine/wit"
)

// A list of n strings all pointing at one buffer of size bytes, in every
// encoding, and a list of small records, lifted under a budget through
// both paths: past the budget each lift fails with a BudgetError before
// allocating much more than the budget; within it, it succeeds.
func TestLiftBudget(t *testing.T) {
	type pair struct{ A, B uint8 }
	tests := []struct {
		name   string
		enc    StringEncoding
		typ    wit.Type
		goType reflect.Type
		// elem is the element size; units the string's code units.
		elem, units uint32
		n           uint32
		budget      uint64
		fits        bool
	}{
		{"utf8 strings over", UTF8, list(wit.String), reflect.TypeFor[[]string](), 8, 1000, 1000, 100_000, false},
		{"utf16 strings over", UTF16, list(wit.String), reflect.TypeFor[[]string](), 8, 500, 1000, 100_000, false},
		{"latin1 strings over", Latin1UTF16, list(wit.String), reflect.TypeFor[[]string](), 8, 1000, 1000, 100_000, false},
		{"utf8 strings within", UTF8, list(wit.String), reflect.TypeFor[[]string](), 8, 1000, 10, 100_000, true},
		{"records over", UTF8, list(rec("a", wit.U8, "b", wit.U8)), reflect.TypeFor[[]pair](), 2, 0, 60_000, 100_000, false},
		{"records within", UTF8, list(rec("a", wit.U8, "b", wit.U8)), reflect.TypeFor[[]pair](), 2, 0, 100, 100_000, true},
	}
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, tt.enc)
			e.opts.LiftBudget = tt.budget
			buf := e.alloc(t, 2, 2*tt.units)
			entries := e.alloc(t, 4, tt.n*tt.elem)
			if tt.units > 0 {
				for i := range tt.n {
					p := entries + i*8
					copy(e.bytes(p, 8), []byte{byte(buf), byte(buf >> 8), byte(buf >> 16), byte(buf >> 24),
						byte(tt.units), byte(tt.units >> 8), 0, 0})
				}
			}
			lt := mustType(t, tt.typ)
			cd, err := lt.NewCodec(tt.goType)
			if err != nil {
				t.Fatal(err)
			}
			flat := []uint64{uint64(entries), uint64(tt.n)}
			_, dynErr := lt.Lift(ctx, e.opts, flat)
			typedErr := cd.Lift(ctx, e.opts, flat, reflect.New(tt.goType).Interface())
			for path, err := range map[string]error{"dynamic": dynErr, "typed": typedErr} {
				var be *BudgetError
				switch {
				case tt.fits && err != nil:
					t.Errorf("%s: %v", path, err)
				case !tt.fits && (!errors.As(err, &be) || be.Max != tt.budget || be.Desired <= tt.budget):
					t.Errorf("%s: want a BudgetError over %d, got %v", path, tt.budget, err)
				}
			}
		})
	}
}
