package canon

import (
	"context"
	"encoding/binary"
)

// call is the state of one lift or lower operation. mem is a view of the
// whole linear memory, taken once and refreshed after every realloc because
// growing the memory may move it; all reads and writes go through it.
type call struct {
	ctx  context.Context
	opts *Options
	mem  []byte
	// strs is the unused rest of the string arena's current chunk, of
	// chunk bytes (see stringBytes). hint, when set, is the size of the
	// first chunk; strBytes counts the string bytes handed out.
	strs           []byte
	chunk          int
	hint, strBytes int
	// root is the plan of the value being lifted on the typed path and
	// slabs the state of its slabs (slab.go).
	root  *plan
	slabs [maxSlabs]slabState
	// spent is what lifting has allocated on the host so far, budget the
	// most it may (see charge).
	spent, budget uint64
}

func newCall(ctx context.Context, opts *Options) call {
	c := call{ctx: ctx, opts: opts, budget: opts.LiftBudget}
	if c.budget == 0 {
		c.budget = DefaultLiftBudget
	}
	c.refresh()
	return c
}

// refresh retakes the view of memory after guest code ran (realloc). Only
// growing the memory moves or extends it, so a memory of the same size
// still has the same view.
func (c *call) refresh() {
	if m := c.opts.Memory; m != nil {
		if n := m.Size(); c.mem == nil || uint64(n) != uint64(len(c.mem)) {
			c.mem, _ = m.Read(0, n)
		}
	}
}

// needMemory fails unless the site has a memory option.
func (c *call) needMemory() error {
	if c.opts.Memory == nil {
		return missingOption("memory")
	}
	return nil
}

// check traps unless [ptr, ptr+size) is in memory and ptr is aligned.
func (c *call) check(ptr uint32, size uint64, align uint32, what string) error {
	if ptr&(align-1) != 0 {
		return trap("misaligned %s pointer %#x (alignment %d)", what, ptr, align)
	}
	if uint64(ptr)+size > uint64(len(c.mem)) {
		return trap("%s at %#x (%d bytes) is out of bounds of memory (%d bytes)", what, ptr, size, len(c.mem))
	}
	return nil
}

// realloc calls the guest's realloc and traps unless the block it returns
// is aligned and in bounds (the checks the spec makes after every allocate
// and reallocate).
func (c *call) realloc(old, oldSize, align, newSize uint32) (uint32, error) {
	if c.opts.Realloc == nil {
		return 0, missingOption("realloc")
	}
	p, err := c.opts.Realloc(c.ctx, old, oldSize, align, newSize)
	if err != nil {
		return 0, err
	}
	c.refresh()
	if err := c.check(p, uint64(newSize), align, "realloc result"); err != nil {
		return 0, err
	}
	return p, nil
}

func (c *call) handles() (Handles, error) {
	if c.opts.Handles == nil {
		return nil, missingOption("handles")
	}
	return c.opts.Handles, nil
}

// Little-endian access to memory at an offset the caller has bounds-checked.

func get16(m []byte, p uint32) uint16 { return binary.LittleEndian.Uint16(m[p:]) }
func get32(m []byte, p uint32) uint32 { return binary.LittleEndian.Uint32(m[p:]) }
func get64(m []byte, p uint32) uint64 { return binary.LittleEndian.Uint64(m[p:]) }

// getN reads a little-endian integer of size 1, 2, 4 or 8 bytes.
func getN(m []byte, p, size uint32) uint64 {
	switch size {
	case 1:
		return uint64(m[p])
	case 2:
		return uint64(get16(m, p))
	case 4:
		return uint64(get32(m, p))
	}
	return get64(m, p)
}

// putN writes v as a little-endian integer of size 1, 2, 4 or 8 bytes.
func putN(m []byte, p, size uint32, v uint64) {
	switch size {
	case 1:
		m[p] = byte(v)
	case 2:
		put16(m, p, uint16(v))
	case 4:
		put32(m, p, uint32(v))
	default:
		put64(m, p, v)
	}
}

func put16(m []byte, p uint32, v uint16) { binary.LittleEndian.PutUint16(m[p:], v) }
func put32(m []byte, p uint32, v uint32) { binary.LittleEndian.PutUint32(m[p:], v) }
func put64(m []byte, p uint32, v uint64) { binary.LittleEndian.PutUint64(m[p:], v) }

// loadDisc reads the discriminant of variant-like t at p and traps unless
// it names a case.
func (c *call) loadDisc(t *Type, p uint32) (uint32, error) {
	disc := uint32(getN(c.mem, p, t.discSize))
	if disc >= uint32(len(t.cases)) {
		return 0, trap("invalid %s discriminant %d (%d cases)", t.kind, disc, len(t.cases))
	}
	return disc, nil
}

// storeDisc writes the discriminant of variant-like t at p.
func (c *call) storeDisc(t *Type, p uint32, disc uint32) {
	putN(c.mem, p, t.discSize, uint64(disc))
}
