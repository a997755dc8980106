package binary

import "unicode/utf8"

// reader reads b[pos:end]. Sub-readers share b so every position is an
// absolute offset into the top-level input, which keeps error offsets and
// ast offsets meaningful without bookkeeping.
type reader struct {
	b   []byte
	pos int
	end int
}

func (r *reader) remaining() int { return r.end - r.pos }

func (r *reader) eof() bool { return r.pos >= r.end }

func (r *reader) byte() (byte, error) {
	if r.pos >= r.end {
		return 0, failAt(r.pos, ErrUnexpectedEOF, "unexpected end of input")
	}
	c := r.b[r.pos]
	r.pos++
	return c, nil
}

func (r *reader) peek() (byte, error) {
	if r.pos >= r.end {
		return 0, failAt(r.pos, ErrUnexpectedEOF, "unexpected end of input")
	}
	return r.b[r.pos], nil
}

// bytes returns the next n bytes as a sub-slice of the input.
func (r *reader) bytes(n int) ([]byte, error) {
	if n < 0 || n > r.remaining() {
		return nil, failAt(r.pos, ErrBadLength, "length %d exceeds the %d remaining bytes", n, r.remaining())
	}
	s := r.b[r.pos : r.pos+n : r.pos+n]
	r.pos += n
	return s, nil
}

// sub returns a reader over the next n bytes and skips them in r.
func (r *reader) sub(n int) (*reader, error) {
	if n < 0 || n > r.remaining() {
		return nil, failAt(r.pos, ErrBadLength, "length %d exceeds the %d remaining bytes", n, r.remaining())
	}
	s := &reader{b: r.b, pos: r.pos, end: r.pos + n}
	r.pos += n
	return s, nil
}

// uleb reads an unsigned LEB128 integer of at most bits bits, rejecting
// over-long encodings and set bits beyond the width, as core wasm does.
func (r *reader) uleb(bits uint) (uint64, error) {
	start := r.pos
	var v uint64
	for shift := uint(0); ; shift += 7 {
		c, err := r.byte()
		if err != nil {
			return 0, err
		}
		if shift+7 > bits {
			// Last permitted byte: no continuation, no bits past the width.
			if c&0x80 != 0 || uint64(c)>>(bits-shift) != 0 {
				return 0, failAt(start, ErrBadLEB128, "integer too large for u%d", bits)
			}
		}
		v |= uint64(c&0x7f) << shift
		if c&0x80 == 0 {
			return v, nil
		}
	}
}

func (r *reader) u32() (uint32, error) {
	v, err := r.uleb(32)
	return uint32(v), err
}

func (r *reader) u64() (uint64, error) { return r.uleb(64) }

// s33 reads a signed 33-bit LEB128 integer (the encoding of value types,
// whose negative values are type opcodes).
func (r *reader) s33() (int64, error) {
	start := r.pos
	var v int64
	var shift uint
	for {
		c, err := r.byte()
		if err != nil {
			return 0, err
		}
		if shift+7 > 33 {
			// 5th byte: 5 payload bits; the two unused high bits must
			// both equal the sign bit (bit 4 of this byte).
			unused, sign := c&0x60, c&0x10 != 0
			if c&0x80 != 0 || (sign && unused != 0x60) || (!sign && unused != 0) {
				return 0, failAt(start, ErrBadLEB128, "integer too large for s33")
			}
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
}

// count reads a vector length. Every vector element occupies at least one
// byte, so a count beyond the remaining input is malformed; checking here
// bounds every allocation sized by a count.
func (r *reader) count() (int, error) {
	off := r.pos
	n, err := r.u32()
	if err != nil {
		return 0, err
	}
	if int64(n) > int64(r.remaining()) {
		return 0, failAt(off, ErrBadLength, "vector length %d exceeds the %d remaining bytes", n, r.remaining())
	}
	return int(n), nil
}

// name reads a length-prefixed UTF-8 string.
func (r *reader) name() (string, error) {
	off := r.pos
	n, err := r.u32()
	if err != nil {
		return "", err
	}
	if int64(n) > int64(r.remaining()) {
		return "", failAt(off, ErrBadLength, "name length %d exceeds the %d remaining bytes", n, r.remaining())
	}
	s := r.b[r.pos : r.pos+int(n)]
	if !utf8.Valid(s) {
		return "", failAt(r.pos, ErrBadUTF8, "name is not valid UTF-8")
	}
	r.pos += int(n)
	return string(s), nil
}

// vec reads a vector whose elements are decoded by elem.
func vec[T any](r *reader, elem func(*reader) (T, error)) ([]T, error) {
	n, err := r.count()
	if err != nil {
		return nil, err
	}
	out := make([]T, 0, n)
	for range n {
		v, err := elem(r)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}
