package canon

import (
	"context"
	"fmt"
)

// Load lifts the value of type t stored at ptr in opts.Memory (load). It
// traps if ptr is misaligned or the value extends beyond memory.
func (t *Type) Load(ctx context.Context, opts *Options, ptr uint32) (any, error) {
	c := newCall(ctx, opts)
	if err := c.needMemory(); err != nil {
		return nil, err
	}
	if err := c.check(ptr, uint64(t.size), t.align, "value"); err != nil {
		return nil, err
	}
	return c.load(t, ptr)
}

// Store lowers v into opts.Memory at ptr (store), allocating with
// opts.Realloc for strings and lists. It traps if ptr is misaligned or the
// value would extend beyond memory.
func (t *Type) Store(ctx context.Context, opts *Options, v any, ptr uint32) error {
	c := newCall(ctx, opts)
	if err := c.needMemory(); err != nil {
		return err
	}
	if err := c.check(ptr, uint64(t.size), t.align, "value"); err != nil {
		return err
	}
	return c.store(t, v, ptr)
}

// Lift lifts a value of type t from its flat core values (lift_flat);
// len(flat) must be len(t.Flat()).
func (t *Type) Lift(ctx context.Context, opts *Options, flat []uint64) (any, error) {
	if err := t.flatOK(); err != nil {
		return nil, err
	}
	if len(flat) != len(t.flat) {
		return nil, fmt.Errorf("canon: lifting %s from %d flat values, want %d", TypeString(t.wit), len(flat), len(t.flat))
	}
	c := newCall(ctx, opts)
	if t.memory {
		if err := c.needMemory(); err != nil {
			return nil, err
		}
	}
	return c.liftFlat(t, flat)
}

// Lower lowers v into len(t.Flat()) core values appended to dst
// (lower_flat).
func (t *Type) Lower(ctx context.Context, opts *Options, v any, dst []uint64) ([]uint64, error) {
	if err := t.flatOK(); err != nil {
		return dst, err
	}
	c := newCall(ctx, opts)
	if t.memory {
		if err := c.needMemory(); err != nil {
			return dst, err
		}
	}
	n := len(dst)
	dst = append(dst, make([]uint64, len(t.flat))...)
	if err := c.lowerFlat(t, v, dst[n:]); err != nil {
		return dst[:n], err
	}
	return dst, nil
}
