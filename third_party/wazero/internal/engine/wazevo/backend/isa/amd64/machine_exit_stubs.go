package amd64

import "github.com/tetratelabs/wazero/internal/engine/wazevo/ssa"

// Out-of-line exit paths (mur patch).
//
// lowerExitIfTrueWithCode used to leave its exit path (saving RSP/RBP, the
// exit code and the return address, then leaving to Go) inline: the hot
// path jumped over it, so every memory bounds check, and every other
// ExitIfTrue, cost a taken branch and ~40 bytes of instruction stream that
// never runs. The exit path is now moved after the function's last block,
// and the check jumps to it only when it fails, so the common case falls
// through. The move happens after register allocation, so the moved
// instructions keep the registers they were given, and what they read was
// set before the branch, exactly as when they were inline.

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
