package component_test

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/mur-go/mur/engine/component"
)

const (
	storeReset = "engine-store-reset"
	resetAPI   = "test:guest/reset@0.1.0#"
)

// resetChain makes stores of engine-store-reset one after another, each
// closed before the next, so that from the third on every store reuses
// the instances of the one before it (the second adopts a prepared one or
// is restored; the configuration's first takes the snapshot), and from
// the third on every reset copies only what was written, where the engine
// can tell (the second's reset arms the instances).
type resetChain struct {
	t   *testing.T
	e   *component.Engine
	c   *component.Component
	l   *component.Linker
	pre *component.Preinit
	n   int
}

// newResetChain starts a chain in an engine that tracks written pages
// where the kernel can, or never with whole set.
func newResetChain(t *testing.T, whole bool) *resetChain {
	e := newEngine(t)
	if whole {
		component.StopTrackingPages(e)
	}
	r := &resetChain{t: t, e: e, c: compile(t, e, storeReset), l: component.NewLinker(), pre: &component.Preinit{Key: "reset", Allow: allowAll}}
	r.open(false).close()
	return r
}

// next makes the chain's next store, which must reuse the instances of
// the one before from the third on.
func (r *resetChain) next() *reuseStore {
	r.t.Helper()
	return r.open(r.n >= 2)
}

func (r *resetChain) open(reuse bool) *reuseStore {
	r.t.Helper()
	reused := component.ReusedStores(r.e)
	s := newReuseStore(r.t, r.l, r.c, &component.Store{Preinit: r.pre})
	r.n++
	if reuse && component.ReusedStores(r.e) == reused {
		r.t.Fatalf("store %d did not reuse the instances of the one before: the test proves nothing", r.n)
	}
	return s
}

func (r *resetChain) call(s *reuseStore, fn string, args ...any) any {
	r.t.Helper()
	v, err := call(r.t, s.inst, resetAPI+fn, args...)
	if err != nil {
		r.t.Fatalf("store %d: %s: %v", r.n, fn, err)
	}
	return v
}

// closeParked closes s, which must be parked and, from the chain's third
// store on, reset by its written pages where the engine can tell them.
func (r *resetChain) closeParked(s *reuseStore) {
	r.t.Helper()
	tracked := component.TrackedResets(r.e)
	s.close()
	if r.n >= 3 && component.TracksPages(r.e) && component.TrackedResets(r.e) == tracked {
		r.t.Fatalf("store %d was not reset by its written pages: the test proves nothing", r.n)
	}
}

// secretBytes is secret as plant's list argument carries it: the word the
// guest's find looks for, once the host has lowered it.
func secretBytes(secret uint32) []byte {
	return binary.LittleEndian.AppendUint32(nil, secret)
}

// A store that reuses the instances of a closed one, reset by copying
// back only the pages written since the last reset, finds nothing the
// last store left: not in pages only the attacking call ever wrote (more
// regions than one pass of the kernel's scan reports), not in a page an
// ordinary call writes every time (left unprotected between resets), not
// in the page the host itself wrote when lowering the attacker's argument,
// not in the last page of memory, not in the global; nor what ordinary
// calls wrote. The attack comes at each point of the reset's life: before
// the instances are armed, while the pages an ordinary call writes are
// being learnt, once they are known, and when they are protected again.
// An attacker that traps leaves nothing in the store that reuses the
// instances of one open beside it. The same holds where every reset
// copies the whole image.
func TestResetStoreHoldsNothingOfTheLastStore(t *testing.T) {
	for _, whole := range []bool{false, true} {
		t.Run(map[bool]string{false: "pages", true: "whole"}[whole], func(t *testing.T) { testResetStore(t, whole) })
	}
}

func testResetStore(t *testing.T, whole bool) {
	for _, tt := range []struct {
		name string
		at   int
		trap bool
	}{
		{"before arming", 2, false},
		{"first tracked reset", 3, false},
		{"learnt pages", 4, false},
		{"learnt pages, later", 9, false},
		{"pages protected again", 37, false},
		{"trap", 5, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := newResetChain(t, whole)
			secret := plantedSecret
			for r.n < tt.at+4 {
				s := r.next()
				if got := r.call(s, "find", secret).(uint32); got != 0 {
					t.Fatalf("store %d finds traces %#x of the ones before", r.n, got)
				}
				r.call(s, "touch")
				switch {
				case r.n == tt.at && tt.trap:
					a := r.open(false)
					r.call(a, "touch")
					var trap *component.TrapError
					if _, err := call(t, a.inst, resetAPI+"plant-trap", secret, secretBytes(secret)); !errors.As(err, &trap) {
						t.Fatalf("plant-trap answered %v, want a trap", err)
					}
					a.close()
				case r.n == tt.at:
					r.call(s, "plant", secret, secretBytes(secret))
					if got := r.call(s, "find", secret).(uint32); got&(1|2|16) != 1|2|16 {
						t.Fatalf("the attacker's own store finds %#x: the secret never reached memory and global", got)
					}
				}
				r.closeParked(s)
			}
		})
	}
}

// The host's own write into the attacker's memory is what the reset must
// catch: with nothing else planted there, the next store finds nothing.
func TestResetStoreCatchesTheHostsWrites(t *testing.T) {
	r := newResetChain(t, false)
	secret := plantedSecret ^ 0xffff
	for r.n < 8 {
		s := r.next()
		if got := r.call(s, "find", secret).(uint32); got != 0 {
			t.Fatalf("store %d finds traces %#x of the ones before", r.n, got)
		}
		r.call(s, "touch")
		// Only the lowering writes this secret: plant's code writes another.
		if r.n == 5 {
			r.call(s, "plant", plantedSecret, secretBytes(secret))
			if got := r.call(s, "find", secret).(uint32); got&2 == 0 {
				t.Fatalf("the attacker's own store finds %#x: the host never wrote the bytes", got)
			}
		}
		r.closeParked(s)
	}
}
