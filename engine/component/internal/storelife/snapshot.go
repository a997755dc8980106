package storelife

import (
	"errors"
	"fmt"
	"sync"

	"github.com/tetratelabs/wazero/api"

	"github.com/mur-go/mur/engine/component/internal/coremod"
	"github.com/mur-go/mur/engine/component/internal/plan"
)

// Snapshot is the post-initialisation state of every core instance, as
// differences from a fresh instance that ran no start function.
type Snapshot struct {
	insts []instState
	// Replay are the handle-making calls and host-resource drops of the
	// initialisation, which a restored store makes again (Record).
	Replay []Call
	// Memory is the total size of all memories, checked against the cap.
	Memory uint64

	// mu guards image: every instance's whole memory as restored, which a
	// closed store's instances are reset to for reuse; nil until a store
	// is restored, and again once the engine drops it as idle. An image
	// is never changed once set.
	mu    sync.Mutex
	image [][]byte
}

type instState struct {
	memSize uint64 // bytes; 0 when the instance defines no memory
	runs    []memRun
	globals []globalValue
}

type memRun struct {
	off  uint32
	data []byte
}

type globalValue struct {
	name string
	v    uint64
}

// ErrGrowRefused is Restore's error when a memory could not grow to the
// snapshot's size: the store's memory cap is below it.
var ErrGrowRefused = errors.New("a memory could not grow to the snapshot's size")

// Capture reads the state of core, the instances of a store of p that
// has just initialised, as differences from base, those of a store of
// the same component that ran no start function.
func Capture(p *plan.Plan, core, base []api.Module) (*Snapshot, error) {
	snap := &Snapshot{insts: make([]instState, len(core))}
	for i, m := range core {
		ci := p.CoreInsts[i]
		st := &snap.insts[i]
		if ci.State.Memory {
			mem, bmem := m.ExportedMemory(coremod.StateMemory), base[i].ExportedMemory(coremod.StateMemory)
			if mem == nil || bmem == nil {
				return nil, fmt.Errorf("core instance %d: memory export missing", i)
			}
			cur, _ := mem.Read(0, mem.Size())
			old, _ := bmem.Read(0, bmem.Size())
			st.memSize = uint64(len(cur))
			st.runs = diffRuns(cur, old)
			snap.Memory += st.memSize
		}
		for _, name := range ci.State.Globals {
			g := m.ExportedGlobal(name)
			if g == nil {
				return nil, fmt.Errorf("core instance %d: global export %s missing", i, name)
			}
			st.globals = append(st.globals, globalValue{name: name, v: g.Get()})
		}
	}
	return snap, nil
}

// runChunk is the granularity of memory differences: runs closer than
// this are merged, which keeps the run count (and restore's calls) low.
const runChunk = 64

// diffRuns returns the runs of cur that differ from old (read as zero past
// its end), copied.
func diffRuns(cur, old []byte) []memRun {
	var runs []memRun
	start := -1
	flush := func(end int) {
		runs = append(runs, memRun{off: uint32(start), data: append([]byte(nil), cur[start:end]...)})
		start = -1
	}
	for off := 0; off < len(cur); off += runChunk {
		same := sameChunk(cur[off:min(off+runChunk, len(cur))], old[min(off, len(old)):min(off+runChunk, len(old))])
		switch {
		case !same && start < 0:
			start = off
		case same && start >= 0:
			flush(off)
		}
	}
	if start >= 0 {
		flush(len(cur))
	}
	return runs
}

// sameChunk compares a chunk of memory with its old contents, which may be
// shorter (the memory grew; the rest was zero).
func sameChunk(cur, old []byte) bool {
	if string(cur[:len(old)]) != string(old) {
		return false
	}
	for _, c := range cur[len(old):] {
		if c != 0 {
			return false
		}
	}
	return true
}

// Restore writes the snapshot's memories and globals into core, fresh
// instances of its configuration's modules. A memory that cannot grow to
// its size fails it with ErrGrowRefused.
func (snap *Snapshot) Restore(core []api.Module) error {
	for i, m := range core {
		st := &snap.insts[i]
		if st.memSize > 0 {
			mem := m.ExportedMemory(coremod.StateMemory)
			if mem == nil {
				return fmt.Errorf("core instance %d: memory export missing", i)
			}
			if have := uint64(mem.Size()); have < st.memSize {
				if _, ok := mem.Grow(uint32((st.memSize - have) >> 16)); !ok {
					return ErrGrowRefused
				}
			}
			for _, r := range st.runs {
				if !mem.Write(r.off, r.data) {
					return fmt.Errorf("core instance %d: snapshot run at %#x does not fit its memory", i, r.off)
				}
			}
		}
		for _, g := range st.globals {
			mg, ok := m.ExportedGlobal(g.name).(api.MutableGlobal)
			if !ok {
				return fmt.Errorf("core instance %d: global %s is not mutable", i, g.name)
			}
			mg.Set(g.v)
		}
	}
	return nil
}

// Bytes is the heap the snapshot holds in memory runs.
func (snap *Snapshot) Bytes() int {
	n := 0
	for _, st := range snap.insts {
		for _, r := range st.runs {
			n += len(r.data)
		}
	}
	return n
}
