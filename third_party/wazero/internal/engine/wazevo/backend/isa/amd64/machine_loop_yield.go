package amd64

import (
	"github.com/tetratelabs/wazero/internal/engine/wazevo/backend"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/backend/regalloc"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/ssa"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/wazevoapi"
)

// Loop yield checks (mur patch).
//
// An embedder that must interrupt a guest spinning in a loop (deadlines,
// and Go's stop-the-world, which waits for a goroutine stuck in compiled
// code) used to add, in wasm, a counter decrement and a call to a host
// function at every loop header. That call sits inside every loop, so the
// register allocator spills loop-carried values around it on every back
// edge. Here the check is an instruction with no result that only reads
// the execution context's register:
//
//	sub qword [ctx + loopFuel], 1
//	jb  .yield            ; out of line, after the function's last block
//	.cont:
//
// and the out-of-line path, expanded after register allocation, calls a
// shared trampoline that saves every allocatable register in the
// execution context, leaves to Go (ExitCodeLoopYield) and restores them
// all when Go resumes it. Nothing is clobbered, so nothing is spilled for
// it. The trampoline takes the execution context in RAX, so the path saves
// RAX first when the context is elsewhere:
//
//	.yield:
//	mov [ctx + savedRAX], rax ; mov rax, ctx   (when ctx is not RAX)
//	call [rax + loopYieldTrampolineAddress]
//	mov rax, [ctx + savedRAX]                  (when ctx is not RAX)
//	jmp .cont
//
// The flags the sub and the trampoline write are dead at a loop header:
// the check is the header's first instruction.

// loopYieldSavedRAXSlot is the slot of the execution context's saved
// registers that holds RAX during a loop yield: the one after those the
// trampoline saves.
var loopYieldSavedRAXSlot = len(stackGrowSaveVRegs)

func (i *instruction) asLoopYieldCheck(execCtx regalloc.VReg) *instruction {
	i.kind = loopYieldCheck
	i.op1 = newOperandReg(execCtx)
	return i
}

// encodeLoopYieldCheck emits `sub qword [ctx + loopFuel], 1`.
func encodeLoopYieldCheck(c backend.Compiler, i *instruction) {
	m := amode{kindWithShift: uint32(amodeImmReg), base: i.op1.reg(), imm32: wazevoapi.ExecutionContextOffsetLoopFuel.U32()}
	encodeEncMem(c, legacyPrefixesNone, 0x83, 1, 5, &m, rexInfo(0).setW())
	c.EmitByte(1)
}

// expandLoopYieldChecks gives every loop yield check its branch and its
// out-of-line path, once registers are assigned.
func (m *machine) expandLoopYieldChecks() {
	src := ssa.SourceOffset(-1)
	for _, pos := range m.orderedSSABlockLabelPos {
		for cur := pos.begin; cur != pos.end.next; cur = cur.next {
			switch cur.kind {
			case sourceOffsetInfo:
				src = cur.sourceOffsetInfo()
			case loopYieldCheck:
				if cur == pos.end {
					panic("BUG: loop yield check ends its block")
				}
				m.expandLoopYieldCheck(cur, src)
			}
		}
	}
}

func (m *machine) expandLoopYieldCheck(check *instruction, src ssa.SourceOffset) {
	ctx := check.op1.reg()
	if r := ctx.RealReg(); r == rsp || r == rbp {
		panic("BUG: execution context in " + formatVRegSized(ctx, true))
	}
	yield, _ := m.allocateLabel()
	contNop, cont := m.allocateBrTarget()
	br := m.allocateInstr().asJmpIf(condB, newOperandLabel(yield))
	next := check.next
	check.next, br.prev = br, check
	br.next, contNop.prev = contNop, br
	contNop.next, next.prev = next, contNop

	savedRAX := wazevoapi.ExecutionContextOffsetSavedRegistersBegin.U32() + uint32(loopYieldSavedRAXSlot)*16
	first := m.allocateNop()
	cur := first
	inRAX := ctx.RealReg() == rax
	if !inRAX {
		cur = linkInstr(cur, m.allocateInstr().asMovRM(raxVReg, newOperandMem(m.newAmodeImmReg(savedRAX, ctx)), 8))
		cur = linkInstr(cur, m.allocateInstr().asMovRR(ctx, raxVReg, true))
	}
	cur = linkInstr(cur, m.allocateInstr().asCallIndirect(newOperandMem(m.newAmodeImmReg(
		wazevoapi.ExecutionContextOffsetLoopYieldTrampolineAddress.U32(), raxVReg)), nil))
	if !inRAX {
		cur = linkInstr(cur, m.allocateInstr().asMov64MR(newOperandMem(m.newAmodeImmReg(savedRAX, ctx)), raxVReg))
	}
	linkInstr(cur, m.allocateInstr().asJmp(newOperandLabel(cont)))
	m.exitStubs = append(m.exitStubs, exitStub{label: yield, first: first, src: src})
}

// CompileLoopYieldSequence returns the trampoline the out-of-line path of
// a loop yield check calls, with the execution context in RAX: it saves
// every other allocatable register, leaves to Go with ExitCodeLoopYield,
// and restores them when Go resumes it.
func (m *machine) CompileLoopYieldSequence() []byte {
	cur := m.allocateNop()
	m.rootInstr = cur
	cur = m.setupRBPRSP(cur)
	execCtx := raxVReg
	cur = m.saveRegistersInExecutionContext(cur, execCtx, stackGrowSaveVRegs)
	exitCodeReg := r12VReg // Saved above.
	cur = linkInstr(cur, m.allocateInstr().asImm(exitCodeReg, uint64(wazevoapi.ExitCodeLoopYield), false))
	saveRsp, saveRbp, setExitCode := m.allocateExitInstructions(execCtx, exitCodeReg)
	cur = linkInstr(cur, setExitCode)
	cur = linkInstr(cur, saveRsp)
	cur = linkInstr(cur, saveRbp)
	cur = m.storeReturnAddressAndExit(cur, execCtx)
	cur = m.restoreRegistersInExecutionContext(cur, execCtx, stackGrowSaveVRegs)
	cur = m.revertRBPRSP(cur)
	linkInstr(cur, m.allocateInstr().asRet())
	m.encodeWithoutSSA(m.rootInstr)
	return m.c.Buf()
}
