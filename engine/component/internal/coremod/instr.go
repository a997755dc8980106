package coremod

import "fmt"

// skipBlockType skips a block type: empty (0x40), a value type, or a type
// index (s33).
func (r *reader) skipBlockType() error {
	if r.off >= len(r.b) {
		return errEOF
	}
	c := r.b[r.off]
	switch {
	case c == 0x40:
		r.off++
		return nil
	case c >= 0x69 && c <= 0x7f, c == 0x63, c == 0x64:
		return r.skipValType()
	}
	_, err := r.sleb(33)
	return err
}

func (r *reader) sleb(bits uint) (int64, error) {
	var v int64
	var shift uint
	for i := uint(0); i < (bits+6)/7; i++ {
		c, err := r.byte()
		if err != nil {
			return 0, err
		}
		v |= int64(c&0x7f) << shift
		shift += 7
		if c&0x80 == 0 {
			if shift < 64 && c&0x40 != 0 {
				v |= -1 << shift
			}
			return v, nil
		}
	}
	return 0, fmt.Errorf("byte offset %#x: signed integer longer than %d bits", r.off, bits)
}

func (r *reader) skipN(n int) error {
	if n > len(r.b)-r.off {
		return errEOF
	}
	r.off += n
	return nil
}

func (r *reader) skipMemArg() error {
	align, err := r.u32()
	if err != nil {
		return err
	}
	if align&(1<<6) != 0 { // multi-memory: a memory index follows
		if _, err := r.u32(); err != nil {
			return err
		}
	}
	_, err = r.uleb(64)
	return err
}

// skipImmediates skips the immediates of the instruction whose opcode was
// just read. It knows the instruction set wazero runs: the core 2.0
// features plus threads (atomics) and exception handling (try_table).
func (r *reader) skipImmediates(op byte) error {
	switch {
	case op == 0x08: // throw tag
		_, err := r.u32()
		return err
	case op == 0x0a: // throw_ref
		return nil
	case op == 0x1f: // try_table blocktype catch*
		return r.skipTryTable()
	case op == 0x02 || op == 0x03 || op == 0x04: // block, loop, if
		return r.skipBlockType()
	case op == 0x0c || op == 0x0d: // br, br_if
		_, err := r.u32()
		return err
	case op == 0x0e: // br_table
		n, err := r.u32()
		if err != nil {
			return err
		}
		for range uint64(n) + 1 {
			if _, err := r.u32(); err != nil {
				return err
			}
		}
		return nil
	case op == 0x10: // call
		_, err := r.u32()
		return err
	case op == 0x11: // call_indirect
		if _, err := r.u32(); err != nil {
			return err
		}
		_, err := r.u32()
		return err
	case op == 0x1c: // select t*
		n, err := r.u32()
		if err != nil {
			return err
		}
		for range n {
			if err := r.skipValType(); err != nil {
				return err
			}
		}
		return nil
	case op >= 0x20 && op <= 0x26: // local/global get/set/tee, table.get/set
		_, err := r.u32()
		return err
	case op >= 0x28 && op <= 0x3e: // loads and stores
		return r.skipMemArg()
	case op == 0x3f || op == 0x40: // memory.size, memory.grow
		_, err := r.u32()
		return err
	case op == 0x41:
		_, err := r.sleb(32)
		return err
	case op == 0x42:
		_, err := r.sleb(64)
		return err
	case op == 0x43:
		return r.skipN(4)
	case op == 0x44:
		return r.skipN(8)
	case op == 0xd0: // ref.null heaptype
		return r.skipHeapType()
	case op == 0xd2: // ref.func
		_, err := r.u32()
		return err
	case op == 0xfc:
		return r.skipPrefixFC()
	case op == 0xfd:
		return r.skipPrefixFD()
	case op == 0xfe:
		return r.skipPrefixFE()
	case op <= 0x01 || op == 0x05 || op == 0x0b || op == 0x0f || op == 0x1a || op == 0x1b ||
		(op >= 0x45 && op <= 0xc4) || op == 0xd1:
		return nil // no immediates
	}
	return fmt.Errorf("byte offset %#x: unsupported instruction opcode %#x", r.off-1, op)
}

func (r *reader) skipHeapType() error {
	if r.off < len(r.b) && r.b[r.off] >= 0x69 && r.b[r.off] <= 0x74 {
		r.off++
		return nil
	}
	_, err := r.sleb(33)
	return err
}

func (r *reader) skipPrefixFC() error {
	sub, err := r.u32()
	if err != nil {
		return err
	}
	switch {
	case sub <= 7: // saturating truncations
		return nil
	case sub == 8: // memory.init data, mem
		if _, err := r.u32(); err != nil {
			return err
		}
		_, err := r.u32()
		return err
	case sub == 9, sub == 13, sub == 15, sub == 16, sub == 17: // data.drop, elem.drop, table.grow/size/fill
		_, err := r.u32()
		return err
	case sub == 10, sub == 12, sub == 14: // memory.copy, table.init, table.copy
		if _, err := r.u32(); err != nil {
			return err
		}
		_, err := r.u32()
		return err
	case sub == 11: // memory.fill
		_, err := r.u32()
		return err
	}
	return fmt.Errorf("byte offset %#x: unsupported instruction 0xfc %d", r.off, sub)
}

func (r *reader) skipPrefixFD() error {
	sub, err := r.u32()
	if err != nil {
		return err
	}
	switch {
	case sub <= 11, sub == 92, sub == 93: // v128 loads and stores
		return r.skipMemArg()
	case sub == 12, sub == 13: // v128.const, i8x16.shuffle
		return r.skipN(16)
	case sub >= 21 && sub <= 34: // extract/replace lane
		return r.skipN(1)
	case sub >= 84 && sub <= 91: // load/store lane
		if err := r.skipMemArg(); err != nil {
			return err
		}
		return r.skipN(1)
	case sub <= 0xff:
		return nil
	}
	return fmt.Errorf("byte offset %#x: unsupported instruction 0xfd %d", r.off, sub)
}

func (r *reader) skipPrefixFE() error {
	sub, err := r.u32()
	if err != nil {
		return err
	}
	switch {
	case sub == 0x03: // atomic.fence
		return r.skipN(1)
	case sub <= 0x02, sub >= 0x10 && sub <= 0x4e:
		return r.skipMemArg()
	}
	return fmt.Errorf("byte offset %#x: unsupported instruction 0xfe %d", r.off, sub)
}

// skipTryTable skips try_table's block type and catch clauses.
func (r *reader) skipTryTable() error {
	if err := r.skipBlockType(); err != nil {
		return err
	}
	n, err := r.u32()
	if err != nil {
		return err
	}
	for range n {
		kind, err := r.byte()
		if err != nil {
			return err
		}
		switch kind {
		case 0x00, 0x01: // catch, catch_ref: tag, label
			if _, err := r.u32(); err != nil {
				return err
			}
		case 0x02, 0x03: // catch_all, catch_all_ref: label
		default:
			return fmt.Errorf("byte offset %#x: unknown catch clause %#x", r.off-1, kind)
		}
		if _, err := r.u32(); err != nil {
			return err
		}
	}
	return nil
}
