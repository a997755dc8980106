package binary

import (
	"github.com/mur-go/mur/engine/component/internal/ast"
)

// decodeCanon reads one canonical definition. Only lift, lower and the
// resource built-ins are supported; every other built-in belongs to the
// async, error-context or threads extensions.
func decodeCanon(r *reader) (ast.Def, error) {
	off := r.pos
	op, err := r.byte()
	if err != nil {
		return nil, err
	}
	c := &ast.Canon{Offset: off}
	switch op {
	case 0x00, 0x01:
		sortOff := r.pos
		sort, err := r.byte()
		if err != nil {
			return nil, err
		}
		if sort != 0x00 {
			return nil, failAt(sortOff, ErrBadOpcode, "canonical lift/lower sort 0x%02x, want 0x00 (func)", sort)
		}
		if c.FuncIdx, err = r.u32(); err != nil {
			return nil, err
		}
		if c.Options, err = decodeCanonOptions(r); err != nil {
			return nil, err
		}
		if op == 0x01 {
			c.Kind = ast.CanonLower
			return c, nil
		}
		c.Kind = ast.CanonLift
		c.TypeIdx, err = r.u32()
		return c, err
	case 0x02, 0x03, 0x04:
		c.Kind = [...]ast.CanonKind{ast.CanonResourceNew, ast.CanonResourceDrop, ast.CanonResourceRep}[op-0x02]
		c.TypeIdx, err = r.u32()
		return c, err
	}
	if feature := canonFeature(op); feature != "" {
		if err := canonFlag(r, op); err != nil {
			return nil, err
		}
		return nil, unsupported(off, feature)
	}
	return nil, failAt(off, ErrBadOpcode, "unknown canonical function 0x%02x", op)
}

// canonFlag reads the boolean immediate an unsupported built-in starts
// with (cancel?, async?), so a malformed one is refused as malformed.
func canonFlag(r *reader, op byte) error {
	switch op {
	case 0x06, 0x0c, 0x20, 0x21, 0x29, 0x2a, 0x2b, 0x2c, 0x2d:
	default:
		return nil
	}
	off := r.pos
	b, err := r.byte()
	if err != nil {
		return err
	}
	if b > 1 {
		return failAt(off, ErrInvalid, "invalid boolean value 0x%02x", b)
	}
	return nil
}

// canonFeature names the extension an unsupported canonical built-in
// opcode belongs to, or "" if the opcode is unknown.
func canonFeature(op byte) string {
	switch {
	case op == 0x1c || op == 0x1d || op == 0x1e:
		return "canon error-context built-ins"
	case op >= 0x26 && op <= 0x2d:
		return "canon thread built-ins"
	case op >= 0x40 && op <= 0x42:
		return "canon shared-everything thread built-ins"
	case op >= 0x05 && op <= 0x25 && op != 0x07 && op != 0x08:
		// 0x07 and 0x08, used by earlier drafts of the async ABI, are
		// unallocated now.
		return "canon async built-ins (task/subtask/stream/future/waitable/backpressure)"
	}
	return ""
}

func decodeCanonOptions(r *reader) (ast.CanonOptions, error) {
	var o ast.CanonOptions
	n, err := r.count()
	if err != nil {
		return o, err
	}
	haveEncoding := false
	for range n {
		off := r.pos
		b, err := r.byte()
		if err != nil {
			return o, err
		}
		switch b {
		case 0x00, 0x01, 0x02:
			if haveEncoding {
				return o, failAt(off, ErrInvalid, "duplicate string-encoding canonical option")
			}
			haveEncoding = true
			o.StringEncoding = [...]ast.StringEncoding{ast.StringUTF8, ast.StringUTF16, ast.StringLatin1UTF16}[b]
		case 0x03:
			err = readCanonIdx(r, off, &o.Memory, "memory")
		case 0x04:
			err = readCanonIdx(r, off, &o.Realloc, "realloc")
		case 0x05:
			err = readCanonIdx(r, off, &o.PostReturn, "post-return")
		case 0x06, 0x07:
			return o, unsupported(off, "async canonical options (async/callback)")
		case 0x08, 0x09:
			return o, unsupported(off, "GC canonical options (core-type/gc)")
		default:
			return o, failAt(off, ErrBadOpcode, "unknown canonical option 0x%02x", b)
		}
		if err != nil {
			return o, err
		}
	}
	return o, nil
}

// readCanonIdx reads the index immediate of an option into *dst, which must
// not have been set by an earlier option.
func readCanonIdx(r *reader, off int, dst **uint32, what string) error {
	if *dst != nil {
		return failAt(off, ErrInvalid, "duplicate %s canonical option", what)
	}
	v, err := r.u32()
	if err != nil {
		return err
	}
	*dst = &v
	return nil
}
