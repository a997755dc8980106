package coremod

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
)

// Export names AddStateExports gives a module's own memory and mutable
// globals, so the engine can read and restore them (pre-initialisation).
const (
	StateMemory       = "mur:memory"
	stateGlobalPrefix = "mur:global:"
)

// State describes the instance state AddStateExports made reachable, and
// whether a snapshot of it could stand in for running the start function.
type State struct {
	// Memory: the module defines a memory, exported as StateMemory.
	Memory bool
	// Globals are the export names of its mutable numeric globals.
	Globals []string
	// Start: the module has a start section (ExportStart moves it to an
	// export).
	Start bool
	// Unsafe, when not empty, says why a snapshot of an instance of this
	// module cannot be trusted: state outside memory and globals (tables,
	// dropped segments) that its code may change, or a global whose value
	// is a reference.
	Unsafe string
}

// AddStateExports returns a copy of module that also exports its defined
// memory and mutable globals under names of its own (StateMemory,
// "mur:global:<index>"), and what it found. Defined globals keep their
// indices, so it may run before or after the other rewrites.
func AddStateExports(module []byte) ([]byte, State, error) {
	secs, err := sections(module)
	if err != nil {
		return nil, State{}, err
	}
	var (
		st              State
		importedGlobals uint32
		entries         []byte
		count           int
	)
	for _, s := range secs {
		r := &reader{b: module[:s.end], off: s.body}
		switch s.id {
		case importSectionID:
			imps, err := parseImports(r)
			if err != nil {
				return nil, State{}, err
			}
			for _, imp := range imps {
				if imp.Kind == KindGlobal {
					importedGlobals++
				}
			}
		case memorySectionID:
			n, err := r.u32()
			if err != nil {
				return nil, State{}, err
			}
			if n > 0 {
				st.Memory = true
				entries = append(append(entries, name(StateMemory)...), byte(KindMemory), 0x00)
				count++
			}
		case globalSectionID:
			globals, unsafe, err := mutableGlobals(r, importedGlobals)
			if err != nil {
				return nil, State{}, err
			}
			if unsafe != "" {
				st.Unsafe = unsafe
			}
			for _, idx := range globals {
				nm := stateGlobalPrefix + strconv.FormatUint(uint64(idx), 10)
				st.Globals = append(st.Globals, nm)
				entries = append(append(entries, name(nm)...), byte(KindGlobal))
				entries = append(entries, uleb(uint64(idx))...)
				count++
			}
		case startSectionID:
			st.Start = true
		case codeSectionID:
			if why, err := stateOutsideMemory(module[s.body:s.end]); err != nil {
				return nil, State{}, err
			} else if why != "" && st.Unsafe == "" {
				st.Unsafe = why
			}
		}
	}
	if count == 0 {
		return module, st, nil
	}
	return withExports(module, secs, count, entries), st, nil
}

// mutableGlobals lists the indices of the mutable globals a global section
// defines. A mutable reference or vector global makes the module unsafe to
// snapshot: its value cannot be read back as a number (or names host state).
func mutableGlobals(r *reader, first uint32) (idx []uint32, unsafe string, err error) {
	n, err := r.u32()
	if err != nil {
		return nil, "", err
	}
	rw := &rewriter{firstDefined: ^uint32(0)}
	var init bytes.Buffer
	for i := range n {
		t, err := r.byte()
		if err != nil {
			return nil, "", err
		}
		mut, err := r.byte()
		if err != nil {
			return nil, "", err
		}
		init.Reset()
		if err := rw.instrs(r, &init, false); err != nil {
			return nil, "", err
		}
		if mut != 1 {
			continue
		}
		switch t {
		case 0x7f, 0x7e, 0x7d, 0x7c: // i32, i64, f32, f64
			idx = append(idx, first+i)
		default:
			unsafe = fmt.Sprintf("mutable global %d has type %#x", first+i, t)
		}
	}
	return idx, unsafe, nil
}

// stateOutsideMemory scans a code section for instructions that change
// instance state a snapshot of memories and globals would miss: tables
// (table.set, table.grow, table.fill, table.copy, table.init) and dropped
// segments (data.drop, elem.drop). It is a static, conservative check: it
// does not ask whether the start function can reach the instruction.
func stateOutsideMemory(body []byte) (string, error) {
	return scanCode(body, func(op byte, sub uint32) string {
		if op == 0x26 {
			return "code has table.set"
		}
		if op == 0xfc {
			switch sub {
			case 9, 12, 13, 14, 15, 17:
				return fmt.Sprintf("code has instruction 0xfc %d (tables or dropped segments)", sub)
			}
		}
		return ""
	})
}

// scanCode walks every instruction of a code section body and returns the
// first non-empty answer of match (sub is the sub-opcode of a 0xfc
// instruction).
func scanCode(body []byte, match func(op byte, sub uint32) string) (string, error) {
	r := &reader{b: body}
	n, err := r.u32()
	if err != nil {
		return "", err
	}
	for i := range n {
		size, err := r.u32()
		if err != nil {
			return "", err
		}
		if int(size) > len(r.b)-r.off {
			return "", fmt.Errorf("core module: function %d body overruns the code section", i)
		}
		fr := &reader{b: r.b[:r.off+int(size)], off: r.off}
		r.off += int(size)
		if why, err := fr.scanBody(match); err != nil || why != "" {
			return why, err
		}
	}
	return "", nil
}

func (r *reader) scanBody(match func(op byte, sub uint32) string) (string, error) {
	groups, err := r.u32()
	if err != nil {
		return "", err
	}
	for range groups {
		if _, err := r.u32(); err != nil {
			return "", err
		}
		if err := r.skipValType(); err != nil {
			return "", err
		}
	}
	for r.off < len(r.b) {
		op, err := r.byte()
		if err != nil {
			return "", err
		}
		var sub uint32
		if op == 0xfc {
			at := r.off
			if sub, err = r.u32(); err != nil {
				return "", err
			}
			r.off = at
		}
		if why := match(op, sub); why != "" {
			return why, nil
		}
		if err := r.skipImmediates(op); err != nil {
			return "", err
		}
	}
	return "", nil
}

// withExports appends count export entries to module's export section,
// creating the section at its place in the order when there is none.
func withExports(module []byte, secs []section, count int, entries []byte) []byte {
	out := make([]byte, 0, len(module)+len(entries)+8)
	out = append(out, module[:8]...)
	done := false
	for _, s := range secs {
		if !done && s.id != 0 && sectionRank(s.id) > sectionRank(exportSectionID) {
			out = appendSection(out, exportSectionID, append(uleb(uint64(count)), entries...))
			done = true
		}
		if s.id == exportSectionID {
			r := &reader{b: module[:s.end], off: s.body}
			n, _ := r.u32() // parsed before
			body := append(uleb(uint64(n)+uint64(count)), module[r.off:s.end]...)
			out = appendSection(out, s.id, append(body, entries...))
			done = true
			continue
		}
		out = append(out, module[s.start:s.end]...)
	}
	if !done {
		out = appendSection(out, exportSectionID, append(uleb(uint64(count)), entries...))
	}
	return out
}

// StartExport is the export name ExportStart gives a module's start
// function.
const StartExport = "mur:start"

// ExportStart returns a copy of module whose start function is exported
// as StartExport instead of being named by a start section. The engine
// calls it right after instantiating, or not at all for an instance
// restored from a snapshot, so both kinds of store instantiate the one
// compiled module. A module without a start section is returned unchanged.
func ExportStart(module []byte) ([]byte, error) {
	secs, err := sections(module)
	if err != nil {
		return nil, err
	}
	if !slices.ContainsFunc(secs, func(s section) bool { return s.id == startSectionID }) {
		return module, nil
	}
	var entry []byte
	stripped := make([]byte, 0, len(module))
	stripped = append(stripped, module[:8]...)
	for _, s := range secs {
		if s.id != startSectionID {
			stripped = append(stripped, module[s.start:s.end]...)
			continue
		}
		r := &reader{b: module[:s.end], off: s.body}
		idx, err := r.u32()
		if err != nil {
			return nil, fmt.Errorf("core module: start section: %w", err)
		}
		entry = append(append(name(StartExport), byte(KindFunc)), uleb(uint64(idx))...)
	}
	secs, err = sections(stripped)
	if err != nil {
		return nil, err
	}
	return withExports(stripped, secs, 1, entry), nil
}
