package coremod

import (
	"bytes"
	"fmt"
)

// InterruptGlobal is the export name of the flag AddInterruptChecks adds.
const InterruptGlobal = "mur:interrupt"

const (
	globalSectionID = 6
	exportSectionID = 7
	codeSectionID   = 10
)

// AddInterruptChecks returns a copy of module in which every loop starts
// by reading a new mutable i32 global, exported as InterruptGlobal, and
// traps (unreachable) when it is non-zero. Setting the global from the
// host stops a running guest at its next loop iteration; calls terminate
// on their own (the call stack is bounded), so loops are the only place a
// guest can spin.
//
// This replaces wazero's WithCloseOnContextDone, whose check leaves the
// compiled code on every loop iteration. A module without loops is
// returned unchanged with ok false.
func AddInterruptChecks(module []byte) (out []byte, ok bool, err error) {
	secs, err := sections(module)
	if err != nil {
		return nil, false, err
	}
	var importedGlobals, definedGlobals uint32
	var code *section
	for i := range secs {
		s := &secs[i]
		switch s.id {
		case importSectionID:
			imps, err := parseImports(&reader{b: module[:s.end], off: s.body})
			if err != nil {
				return nil, false, err
			}
			for _, imp := range imps {
				if imp.Kind == KindGlobal {
					importedGlobals++
				}
			}
		case globalSectionID:
			r := &reader{b: module[:s.end], off: s.body}
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
	flag := importedGlobals + definedGlobals
	check := append(append([]byte{0x23}, uleb(uint64(flag))...), 0x04, 0x40, 0x00, 0x0b)
	newCode, loops, err := instrumentCode(module[code.body:code.end], check)
	if err != nil {
		return nil, false, err
	}
	if loops == 0 {
		return module, false, nil
	}

	newGlobal := []byte{0x7f, 0x01, 0x41, 0x00, 0x0b} // (global (mut i32) (i32.const 0))
	newExport := append(append(uleb(uint64(len(InterruptGlobal))), InterruptGlobal...), 0x03)
	newExport = append(newExport, uleb(uint64(flag))...)

	out = append(make([]byte, 0, len(module)+len(newCode)-(code.end-code.body)+64), module[:8]...)
	wroteGlobal, wroteExport := false, false
	flush := func(rank int) {
		if !wroteGlobal && rank > sectionRank(globalSectionID) {
			out = appendSection(out, globalSectionID, append(uleb(1), newGlobal...))
			wroteGlobal = true
		}
		if !wroteExport && rank > sectionRank(exportSectionID) {
			out = appendSection(out, exportSectionID, append(uleb(1), newExport...))
			wroteExport = true
		}
	}
	for _, s := range secs {
		if s.id != 0 {
			flush(sectionRank(s.id))
		}
		switch s.id {
		case globalSectionID:
			out = appendSection(out, s.id, appendEntry(module[s.body:s.end], newGlobal))
			wroteGlobal = true
		case exportSectionID:
			out = appendSection(out, s.id, appendEntry(module[s.body:s.end], newExport))
			wroteExport = true
		case codeSectionID:
			out = appendSection(out, s.id, newCode)
		default:
			out = append(out, module[s.start:s.end]...)
		}
	}
	return out, true, nil
}

// appendEntry adds one entry to a vector-shaped section body.
func appendEntry(body, entry []byte) []byte {
	r := &reader{b: body}
	n, _ := r.u32() // the section was parsed already
	out := append(uleb(uint64(n)+1), body[r.off:]...)
	return append(out, entry...)
}

// instrumentCode rewrites a code section body, inserting check after the
// block type of every loop instruction. It returns how many loops it saw.
func instrumentCode(body, check []byte) ([]byte, int, error) {
	r := &reader{b: body}
	n, err := r.u32()
	if err != nil {
		return nil, 0, err
	}
	var out bytes.Buffer
	out.Grow(len(body) + len(body)/16)
	out.Write(uleb(uint64(n)))
	loops := 0
	var fn bytes.Buffer
	for i := range n {
		size, err := r.u32()
		if err != nil {
			return nil, 0, err
		}
		if int(size) > len(r.b)-r.off {
			return nil, 0, fmt.Errorf("core module: function %d body overruns the code section", i)
		}
		fr := &reader{b: r.b[:r.off+int(size)], off: r.off}
		r.off += int(size)
		fn.Reset()
		l, err := instrumentBody(fr, check, &fn)
		if err != nil {
			return nil, 0, fmt.Errorf("core module: function %d: %w", i, err)
		}
		loops += l
		out.Write(uleb(uint64(fn.Len())))
		out.Write(fn.Bytes())
	}
	if r.off != len(r.b) {
		return nil, 0, fmt.Errorf("core module: code section has %d trailing bytes", len(r.b)-r.off)
	}
	return out.Bytes(), loops, nil
}

func instrumentBody(r *reader, check []byte, out *bytes.Buffer) (int, error) {
	start := r.off
	groups, err := r.u32()
	if err != nil {
		return 0, err
	}
	for range groups {
		if _, err := r.u32(); err != nil {
			return 0, err
		}
		if err := r.skipValType(); err != nil {
			return 0, err
		}
	}
	loops := 0
	copied := start
	for r.off < len(r.b) {
		op, _ := r.byte()
		if err := r.skipImmediates(op); err != nil {
			return 0, err
		}
		if op == 0x03 {
			out.Write(r.b[copied:r.off])
			out.Write(check)
			copied = r.off
			loops++
		}
	}
	out.Write(r.b[copied:r.off])
	return loops, nil
}
