package plan

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"

	"github.com/mur-go/mur/engine/component/internal/coremod"
)

// Memo keeps rewritten core modules across processes (an on-disk cache
// the engine opens beside wazero's compilation cache). The rewrites are
// a pure function of a module's bytes and its wiring, and most of what
// compiling a component from a warm wazero cache costs: every pass scans
// all function bodies. A nil Memo rewrites every time.
//
// A value Get returns is never written to, by the plan or anyone else,
// for the life of the process (it may be a read-only mapping of a file):
// the compiled module refers into it (CoreInst.Shared).
type Memo interface {
	Get(key [32]byte) ([]byte, bool)
	Put(key [32]byte, value []byte)
}

// rewriteVersion names what the rewrite pipeline (coremod, as driven by
// rewrite) produces; it is part of every Memo key. Change it whenever the
// pipeline's output changes (engine/component's TestRewriteMemoGolden
// pins the output for the test guests and says so).
const rewriteVersion = "mur-rewrite-4"

// rewritten is a core module as the plan instantiates it, and what the
// rewrites learnt of it.
type rewritten struct {
	bytes []byte
	// digest is the SHA-256 of bytes, taken when they were made and kept
	// with them in the memo (whose checksum covers both): wazero derives
	// its compilation cache key from it (CoreInst.Digest) instead of
	// hashing the module a second time on every start.
	digest [32]byte
	// memoized: bytes are a value of the Memo, never written to.
	memoized      bool
	pages         uint64
	interruptible bool
	state         coremod.State
	tableMin      uint64
	grows         bool
}

// rewrite rewires module's imports to renamed and applies the engine's
// rewrites, or takes the result from memo.
func rewrite(memo Memo, module []byte, renamed [][2]string, rw Rewrites) (rewritten, error) {
	var key [32]byte
	if memo != nil {
		key = rewriteKey(module, renamed, rw)
		if b, ok := memo.Get(key); ok {
			if r, err := decodeRewritten(b); err == nil {
				r.memoized = true
				return r, nil
			}
		}
	}
	var r rewritten
	bytes, err := coremod.RewriteImports(module, func(i int, _ coremod.Import) (string, string) {
		return renamed[i][0], renamed[i][1]
	})
	if err != nil {
		return r, err
	}
	if r.pages, err = coremod.MinMemoryPages(module); err != nil {
		return r, err
	}
	// State exports come before the interrupt checks, whose fuel global
	// must never be snapshotted: a restored store starts with fresh fuel.
	if bytes, r.state, err = coremod.AddStateExports(bytes); err != nil {
		return r, err
	}
	if !rw.CompiledInterrupts {
		if bytes, r.interruptible, err = coremod.AddInterruptChecks(bytes, HostModule, YieldFunc); err != nil {
			return r, err
		}
	}
	// After the interrupt checks, which renumber the start function.
	if bytes, err = coremod.ExportStart(bytes); err != nil {
		return r, err
	}
	if bytes, _, _, err = coremod.MergeDataSegments(bytes); err != nil {
		return r, err
	}
	if r.tableMin, r.grows, err = coremod.Tables(bytes); err != nil {
		return r, err
	}
	r.bytes, r.digest = bytes, sha256.Sum256(bytes)
	if memo != nil {
		memo.Put(key, r.encode())
	}
	return r, nil
}

// rewriteKey is the Memo key of module wired to renamed.
func rewriteKey(module []byte, renamed [][2]string, rw Rewrites) [32]byte {
	h := sha256.New()
	var n [8]byte
	field := func(b []byte) {
		binary.LittleEndian.PutUint64(n[:], uint64(len(b)))
		h.Write(n[:])
		h.Write(b)
	}
	field([]byte(rewriteVersion))
	if rw.CompiledInterrupts {
		field([]byte("compiled-interrupts"))
	} else {
		field([]byte("interrupt-checks"))
	}
	field(module)
	for _, r := range renamed {
		field([]byte(r[0]))
		field([]byte(r[1]))
	}
	var k [32]byte
	h.Sum(k[:0])
	return k
}

// encode is r as a Memo value: the flags byte, the module's digest, pages,
// tableMin, the state's unsafe reason and globals, then the module
// (lengths as uvarints).
func (r rewritten) encode() []byte {
	var flags byte
	for i, f := range []bool{r.interruptible, r.grows, r.state.Memory, r.state.Start} {
		if f {
			flags |= 1 << i
		}
	}
	b := append([]byte{flags}, r.digest[:]...)
	b = binary.AppendUvarint(b, r.pages)
	b = binary.AppendUvarint(b, r.tableMin)
	str := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	str(r.state.Unsafe)
	b = binary.AppendUvarint(b, uint64(len(r.state.Globals)))
	for _, g := range r.state.Globals {
		str(g)
	}
	b = binary.AppendUvarint(b, uint64(len(r.bytes)))
	return append(b, r.bytes...)
}

var errBadMemo = errors.New("malformed rewritten module")

// decodeRewritten reads what encode wrote; anything else is an error.
func decodeRewritten(b []byte) (rewritten, error) {
	var r rewritten
	if len(b) == 0 || b[0] > 0xf {
		return r, errBadMemo
	}
	flags := b[0]
	if len(b) < 1+len(r.digest) {
		return r, errBadMemo
	}
	copy(r.digest[:], b[1:])
	b = b[1+len(r.digest):]
	r.interruptible, r.grows, r.state.Memory, r.state.Start = flags&1 != 0, flags&2 != 0, flags&4 != 0, flags&8 != 0
	uv := func() (uint64, bool) {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			return 0, false
		}
		b = b[n:]
		return v, true
	}
	bytesField := func() ([]byte, bool) {
		l, ok := uv()
		if !ok || l > uint64(len(b)) {
			return nil, false
		}
		v := b[:l:l]
		b = b[l:]
		return v, true
	}
	var ok bool
	if r.pages, ok = uv(); !ok || r.pages > 1<<32 {
		return r, errBadMemo
	}
	if r.tableMin, ok = uv(); !ok || r.tableMin > 1<<32 {
		return r, errBadMemo
	}
	unsafe, ok := bytesField()
	if !ok {
		return r, errBadMemo
	}
	r.state.Unsafe = string(unsafe)
	count, ok := uv()
	if !ok || count > uint64(len(b)) {
		return r, errBadMemo
	}
	for i := uint64(0); i < count; i++ {
		g, ok := bytesField()
		if !ok {
			return r, errBadMemo
		}
		r.state.Globals = append(r.state.Globals, string(g))
	}
	if r.bytes, ok = bytesField(); !ok || len(b) != 0 || len(r.bytes) == 0 {
		return r, errBadMemo
	}
	return r, nil
}
