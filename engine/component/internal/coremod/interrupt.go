package coremod

import (
	"bytes"
	"fmt"
)

// FuelGlobal is the export name of the counter AddInterruptChecks adds.
const FuelGlobal = "mur:fuel"

const (
	typeSectionID   = 1
	globalSectionID = 6
	exportSectionID = 7
	startSectionID  = 8
	elemSectionID   = 9
	codeSectionID   = 10
)

// AddInterruptChecks returns a copy of module in which every loop
// iteration decrements a new mutable i32 global, exported as FuelGlobal,
// and calls the imported function yieldModule.yieldName (type func()) when
// it finds the counter at zero. The host's yield refills the counter, and
// traps the guest if its call should end.
//
// This gives a spinning guest two things wazero's compiled code otherwise
// lacks: a point where it can be interrupted (deadlines, cancellation), and
// a regular trip into Go, where the Go scheduler can preempt the goroutine
// (without it a garbage collection's stop-the-world waits for the loop to
// end). Straight-line code and calls need no check: a call chain is bounded
// by the stack. wazero's own WithCloseOnContextDone leaves the compiled
// code on every iteration instead, which made warm calls 4-5x slower.
// Where wazero's compiler emits such a check itself, after register
// allocation (plan.Rewrites.CompiledInterrupts), the engine does not use
// this rewrite: its call in every loop makes the allocator spill.
//
// The new import is appended after the existing function imports, so every
// defined function's index shifts by one; calls, ref.func, element
// segments, exports and the start function are renumbered, and the "name"
// custom section, whose indices would be stale, is dropped. A module
// without loops is returned unchanged with ok false.
func AddInterruptChecks(module []byte, yieldModule, yieldName string) (out []byte, ok bool, err error) {
	secs, err := sections(module)
	if err != nil {
		return nil, false, err
	}
	var (
		importedFuncs, importedGlobals, definedGlobals, types uint32
		code                                                  *section
	)
	for i := range secs {
		s := &secs[i]
		r := &reader{b: module[:s.end], off: s.body}
		switch s.id {
		case typeSectionID:
			if types, err = r.u32(); err != nil {
				return nil, false, err
			}
		case importSectionID:
			imps, err := parseImports(r)
			if err != nil {
				return nil, false, err
			}
			for _, imp := range imps {
				switch imp.Kind {
				case KindFunc:
					importedFuncs++
				case KindGlobal:
					importedGlobals++
				}
			}
		case globalSectionID:
			if definedGlobals, err = r.u32(); err != nil {
				return nil, false, err
			}
		case codeSectionID:
			code = s
		}
	}
	if code == nil {
		return module, false, nil
	}
	rw := &rewriter{
		firstDefined: importedFuncs,
		yield:        importedFuncs,
		fuel:         importedGlobals + definedGlobals,
	}
	newCode, err := rw.code(module[code.body:code.end])
	if err != nil {
		return nil, false, err
	}
	if rw.loops == 0 {
		return module, false, nil
	}

	newType := []byte{0x60, 0x00, 0x00}
	newImport := append(append(name(yieldModule), name(yieldName)...), 0x00)
	newImport = append(newImport, uleb(uint64(types))...)
	newGlobal := []byte{0x7f, 0x01, 0x41, 0x00, 0x0b} // (global (mut i32) (i32.const 0))
	newExport := append(name(FuelGlobal), 0x03)
	newExport = append(newExport, uleb(uint64(rw.fuel))...)

	out = make([]byte, 0, len(module)+len(newCode)-(code.end-code.body)+64)
	out = append(out, module[:8]...)
	added := map[byte][]byte{typeSectionID: newType, importSectionID: newImport, globalSectionID: newGlobal, exportSectionID: newExport}
	// Sections the module lacks are created at their place in the order.
	flush := func(rank int) {
		for _, id := range []byte{typeSectionID, importSectionID, globalSectionID, exportSectionID} {
			if entry, missing := added[id]; missing && rank > sectionRank(id) {
				out = appendSection(out, id, append(uleb(1), entry...))
				delete(added, id)
			}
		}
	}
	for _, s := range secs {
		if s.id != 0 {
			flush(sectionRank(s.id))
		}
		body := module[s.body:s.end]
		switch s.id {
		case typeSectionID, importSectionID, globalSectionID:
			if s.id == globalSectionID {
				if body, err = rw.globals(body); err != nil {
					return nil, false, err
				}
			}
			out = appendSection(out, s.id, appendEntry(body, added[s.id]))
			delete(added, s.id)
		case exportSectionID:
			if body, err = rw.exports(body); err != nil {
				return nil, false, err
			}
			out = appendSection(out, s.id, appendEntry(body, newExport))
			delete(added, s.id)
		case startSectionID:
			r := &reader{b: body}
			idx, err := r.u32()
			if err != nil {
				return nil, false, err
			}
			out = appendSection(out, s.id, uleb(uint64(rw.shift(idx))))
		case elemSectionID:
			if body, err = rw.elements(body); err != nil {
				return nil, false, err
			}
			out = appendSection(out, s.id, body)
		case codeSectionID:
			out = appendSection(out, s.id, newCode)
		case 0:
			if r := (&reader{b: body}); isNameSection(r) {
				continue
			}
			out = append(out, module[s.start:s.end]...)
		default:
			out = append(out, module[s.start:s.end]...)
		}
	}
	flush(1 << 30)
	return out, true, nil
}

func isNameSection(r *reader) bool {
	n, err := r.name()
	return err == nil && n == "name"
}

func name(s string) []byte { return append(uleb(uint64(len(s))), s...) }

// appendEntry adds one entry to a vector-shaped section body.
func appendEntry(body, entry []byte) []byte {
	r := &reader{b: body}
	n, _ := r.u32() // the section was parsed already
	out := append(uleb(uint64(n)+1), body[r.off:]...)
	return append(out, entry...)
}

// FuelRefill is how many loop iterations run between calls to yield.
const FuelRefill = 10_000

// rewriter renumbers function indices and instruments loops.
type rewriter struct {
	firstDefined uint32 // indices at or above shift by one
	yield        uint32 // the new import's function index
	fuel         uint32 // the new global's index
	loops        int
}

func (rw *rewriter) shift(idx uint32) uint32 {
	if idx >= rw.firstDefined {
		return idx + 1
	}
	return idx
}

// check is inserted at the start of every loop body:
//
//	(if (i32.le_s (global.get $fuel) (i32.const 0)) (then (call $yield)))
//	(global.set $fuel (i32.sub (global.get $fuel) (i32.const 1)))
//
// The comparison is signed, not eqz: the host zeroes the fuel from another
// goroutine to interrupt, and a zero written between the guest's test and
// its decrement becomes -1; with eqz that wraps around and the guest spins
// for four billion more iterations (seconds) before it next yields.
func (rw *rewriter) check() []byte {
	g := uleb(uint64(rw.fuel))
	out := append([]byte{0x23}, g...)
	out = append(out, 0x41, 0x00, 0x4c, 0x04, 0x40, 0x10)
	out = append(out, uleb(uint64(rw.yield))...)
	out = append(out, 0x0b, 0x23)
	out = append(out, g...)
	out = append(out, 0x41, 0x01, 0x6b, 0x24)
	return append(out, g...)
}

// instrs copies instructions from r to out until the end of r (until) or,
// with until false, through the first "end" at depth zero (a constant
// expression), renumbering function indices and instrumenting loops.
func (rw *rewriter) instrs(r *reader, out *bytes.Buffer, toEnd bool) error {
	check := rw.check()
	for r.off < len(r.b) {
		start := r.off
		op, _ := r.byte()
		switch op {
		case 0x10, 0xd2: // call, ref.func
			idx, err := r.u32()
			if err != nil {
				return err
			}
			out.WriteByte(op)
			out.Write(uleb(uint64(rw.shift(idx))))
			continue
		}
		if err := r.skipImmediates(op); err != nil {
			return err
		}
		out.Write(r.b[start:r.off])
		if op == 0x03 {
			out.Write(check)
			rw.loops++
		}
		if op == 0x0b && !toEnd {
			return nil
		}
	}
	if !toEnd {
		return errEOF
	}
	return nil
}

func (rw *rewriter) code(body []byte) ([]byte, error) {
	r := &reader{b: body}
	n, err := r.u32()
	if err != nil {
		return nil, err
	}
	var out, fn bytes.Buffer
	out.Grow(len(body) + len(body)/16)
	out.Write(uleb(uint64(n)))
	for i := range n {
		size, err := r.u32()
		if err != nil {
			return nil, err
		}
		if int(size) > len(r.b)-r.off {
			return nil, fmt.Errorf("core module: function %d body overruns the code section", i)
		}
		fr := &reader{b: r.b[:r.off+int(size)], off: r.off}
		r.off += int(size)
		fn.Reset()
		if err := rw.body(fr, &fn); err != nil {
			return nil, fmt.Errorf("core module: function %d: %w", i, err)
		}
		out.Write(uleb(uint64(fn.Len())))
		out.Write(fn.Bytes())
	}
	if r.off != len(r.b) {
		return nil, fmt.Errorf("core module: code section has %d trailing bytes", len(r.b)-r.off)
	}
	return out.Bytes(), nil
}

func (rw *rewriter) body(r *reader, out *bytes.Buffer) error {
	start := r.off
	groups, err := r.u32()
	if err != nil {
		return err
	}
	for range groups {
		if _, err := r.u32(); err != nil {
			return err
		}
		if err := r.skipValType(); err != nil {
			return err
		}
	}
	out.Write(r.b[start:r.off])
	return rw.instrs(r, out, true)
}

// globals renumbers ref.func in global initialisers.
func (rw *rewriter) globals(body []byte) ([]byte, error) {
	r := &reader{b: body}
	n, err := r.u32()
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	out.Write(uleb(uint64(n)))
	for range n {
		start := r.off
		if err := r.skipValType(); err != nil {
			return nil, err
		}
		if _, err := r.byte(); err != nil { // mutability
			return nil, err
		}
		out.Write(r.b[start:r.off])
		if err := rw.instrs(r, &out, false); err != nil {
			return nil, err
		}
	}
	return out.Bytes(), nil
}

func (rw *rewriter) exports(body []byte) ([]byte, error) {
	r := &reader{b: body}
	n, err := r.u32()
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	out.Write(uleb(uint64(n)))
	for range n {
		nm, err := r.name()
		if err != nil {
			return nil, err
		}
		kind, err := r.byte()
		if err != nil {
			return nil, err
		}
		idx, err := r.u32()
		if err != nil {
			return nil, err
		}
		if Kind(kind) == KindFunc {
			idx = rw.shift(idx)
		}
		out.Write(name(nm))
		out.WriteByte(kind)
		out.Write(uleb(uint64(idx)))
	}
	return out.Bytes(), nil
}

// elements renumbers the function indices of every element segment
// encoding (flags 0-7 of the binary format).
func (rw *rewriter) elements(body []byte) ([]byte, error) {
	r := &reader{b: body}
	n, err := r.u32()
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	out.Write(uleb(uint64(n)))
	copyU32 := func() error {
		v, err := r.u32()
		out.Write(uleb(uint64(v)))
		return err
	}
	copyByte := func() error {
		c, err := r.byte()
		out.WriteByte(c)
		return err
	}
	for range n {
		flags, err := r.u32()
		if err != nil {
			return nil, err
		}
		if flags > 7 {
			return nil, fmt.Errorf("core module: unknown element segment flags %d", flags)
		}
		out.Write(uleb(uint64(flags)))
		if flags == 2 || flags == 6 {
			if err := copyU32(); err != nil { // table index
				return nil, err
			}
		}
		if flags&1 == 0 { // active: offset expression
			if err := rw.instrs(r, &out, false); err != nil {
				return nil, err
			}
		}
		if flags&3 != 0 { // element kind or reference type
			if flags&4 == 0 {
				if err := copyByte(); err != nil {
					return nil, err
				}
			} else {
				start := r.off
				if err := r.skipValType(); err != nil {
					return nil, err
				}
				out.Write(r.b[start:r.off])
			}
		}
		count, err := r.u32()
		if err != nil {
			return nil, err
		}
		out.Write(uleb(uint64(count)))
		for range count {
			if flags&4 == 0 {
				idx, err := r.u32()
				if err != nil {
					return nil, err
				}
				out.Write(uleb(uint64(rw.shift(idx))))
			} else if err := rw.instrs(r, &out, false); err != nil {
				return nil, err
			}
		}
	}
	return out.Bytes(), nil
}
