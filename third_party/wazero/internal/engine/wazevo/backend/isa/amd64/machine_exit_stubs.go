package amd64

import "github.com/tetratelabs/wazero/internal/engine/wazevo/ssa"

// Out-of-line exit paths (mur patch).
//
// lowerExitIfTrueWithCode used to leave its exit path (saving RSP/RBP, the
// exit code and the return address, then leaving to Go) inline: the hot
// path jumped over it, so every memory bounds check, and every other
// ExitIfTrue, cost a taken branch and ~40 bytes of instruction stream that
// never runs. Before encoding, the exit path is moved after the function's
// last block, and the check jumps to it only when it fails, so the common
// case falls through. The move happens after register allocation, so the
// moved instructions keep the registers they were given, and what they
// read was set before the branch, exactly as when they were inline.
//
// The path reads the execution context from a copy made just before the
// check (so that the allocator never reloads it inside the path, which the
// fall-through would skip). Where the original is still in its register at
// the branch, the path reads it from there and the copy is dropped: one
// instruction less per check.

// exitBranchMark in a jmpIf's u2 says the instructions after it, up to the
// label it jumps to, are an exit path that ends leaving to Go.
const exitBranchMark = 1

// exitStub is an exit path moved out of line.
type exitStub struct {
	label label
	first *instruction
	// src is the source offset in effect where the path was, so a trap's
	// stack trace points at the same wasm instruction as before.
	src ssa.SourceOffset
}

// moveExitPathsOutOfLine moves the exit path after every marked jmpIf to
// m.exitStubs, in layout order.
func (m *machine) moveExitPathsOutOfLine() {
	m.exitStubs = m.exitStubs[:0]
	src := ssa.SourceOffset(-1) // unknown until the first sourceOffsetInfo
	for _, pos := range m.orderedSSABlockLabelPos {
		for cur := pos.begin; cur != pos.end.next; cur = cur.next {
			switch cur.kind {
			case sourceOffsetInfo:
				src = cur.sourceOffsetInfo()
			case jmpIf:
				if cur.u2 == exitBranchMark {
					m.moveExitPathOutOfLine(cur, src)
				}
			}
		}
	}
}

// moveExitPathOutOfLine detaches the exit path after the marked jmpIf j
// and makes j jump to it, on the inverse of its condition, at a new label.
// It leaves j as it is if the path does not have the expected shape.
func (m *machine) moveExitPathOutOfLine(j *instruction, src ssa.SourceOffset) {
	cont := j.jmpLabel()
	first := j.next
	var last *instruction
	for cur := first; cur != nil; cur = cur.next {
		if cur.kind == nop0 && cur.nop0Label() == cont {
			break
		}
		last = cur
	}
	if last == nil || last.kind != exitSequence || last.next == nil {
		return
	}
	contNop := last.next
	j.next, contNop.prev = contNop, j
	first.prev, last.next = nil, nil

	l, _ := m.allocateLabel()
	j.u1 = uint64(cond(j.u1).invert())
	j.op1 = newOperandLabel(l)
	j.u2 = 0
	m.exitStubs = append(m.exitStubs, exitStub{label: l, first: first, src: src})
	m.dropExecCtxCopy(j, first, last)
}

// dropExecCtxCopy makes the exit path first..last (ending in the exit
// sequence) read the execution context from the register the copy before
// the branch j read it from, and drops the copy, if that register still
// holds it at j and the path is the one lowerExitWithCode emits.
func (m *machine) dropExecCtxCopy(j, first, last *instruction) {
	tmp := last.op1.reg().RealReg()
	// The copy is the last definition of tmp before j, a few instructions
	// back (the compare, and what loads its operands).
	var cp *instruction
	for cur, n := j.prev, 0; cur != nil && n < 8; cur, n = cur.prev, n+1 {
		if cur.kind == movRR && cur.b1 && cur.op2.reg().RealReg() == tmp {
			cp = cur
			break
		}
		if !plainBetweenCopyAndCheck(cur.kind) {
			return
		}
		for _, d := range cur.Defs(&m.exitDefs) {
			if d.RealReg() == tmp {
				return
			}
		}
	}
	if cp == nil || cp.prev == nil || cp.next == nil {
		return
	}
	orig := cp.op1.reg()
	if r := orig.RealReg(); r == rbp || r == rsp || r == tmp {
		return
	}
	// Nothing between the copy and j may write the original's register.
	for cur := cp.next; cur != j; cur = cur.next {
		for _, d := range cur.Defs(&m.exitDefs) {
			if d.RealReg() == orig.RealReg() {
				return
			}
		}
	}
	// The path must use tmp only as the base of its stores and in the
	// exit sequence, and write no register but RBP.
	for cur := first; cur != nil; cur = cur.next {
		switch cur.kind {
		case movRM:
			if a := cur.op2.addressMode(); a.kind() != amodeImmReg || cur.op1.reg().RealReg() == tmp {
				return
			}
		case imm, lea:
			if cur.op2.reg().RealReg() != rbp {
				return
			}
		case nop0, exitSequence:
		default:
			return
		}
	}
	for cur := first; cur != nil; cur = cur.next {
		switch cur.kind {
		case movRM:
			if a := cur.op2.addressMode(); a.base.RealReg() == tmp {
				a.base = orig
			}
		case exitSequence:
			cur.op1.setReg(orig)
		}
	}
	cp.prev.next, cp.next.prev = cp.next, cp.prev
}

// plainBetweenCopyAndCheck says whether an instruction of kind k may stand
// between the copy of the execution context and its check: the compare
// and what the allocator inserts to load its operands. Anything else
// (a call, say) ends the search for the copy.
func plainBetweenCopyAndCheck(k instructionKind) bool {
	switch k {
	case cmpRmiR, movRR, mov64MR, movzxRmR, movsxRmR, imm, aluRmiR, nop0, sourceOffsetInfo:
		return true
	}
	return false
}

// encodeExitStubs emits the exit paths moved out of line, after the
// function's last block.
func (m *machine) encodeExitStubs() {
	bufPtr := m.c.BufPtr()
	for _, s := range m.exitStubs {
		offset := int64(len(*bufPtr))
		m.labelPositionPool.Get(int(s.label)).binaryOffset = offset
		if s.src.Valid() {
			m.c.AddSourceOffsetInfo(offset, s.src)
		}
		for cur := s.first; cur != nil; cur = cur.next {
			m.encodeInstr(cur)
		}
	}
	m.exitStubs = m.exitStubs[:0]
}
