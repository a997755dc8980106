package coremod

import (
	"errors"
	"fmt"
)

type reader struct {
	b   []byte
	off int
}

var errEOF = errors.New("unexpected end of module")

func (r *reader) byte() (byte, error) {
	if r.off >= len(r.b) {
		return 0, errEOF
	}
	c := r.b[r.off]
	r.off++
	return c, nil
}

func (r *reader) uleb(bits uint) (uint64, error) {
	var v uint64
	maxBytes := (bits + 6) / 7
	for i := uint(0); i < maxBytes; i++ {
		c, err := r.byte()
		if err != nil {
			return 0, err
		}
		shift := 7 * i
		if i == maxBytes-1 && uint64(c&0x7f)>>(bits-shift) != 0 {
			return 0, fmt.Errorf("byte offset %#x: integer overflows %d bits", r.off-1, bits)
		}
		v |= uint64(c&0x7f) << shift
		if c&0x80 == 0 {
			return v, nil
		}
	}
	return 0, fmt.Errorf("byte offset %#x: integer longer than %d bits", r.off, bits)
}

func (r *reader) u32() (uint32, error) {
	v, err := r.uleb(32)
	return uint32(v), err
}

func (r *reader) name() (string, error) {
	n, err := r.u32()
	if err != nil {
		return "", err
	}
	if int(n) > len(r.b)-r.off {
		return "", errEOF
	}
	s := string(r.b[r.off : r.off+int(n)])
	r.off += int(n)
	return s, nil
}

// skipDesc skips an import descriptor of kind k.
func (r *reader) skipDesc(k Kind) error {
	switch k {
	case KindFunc:
		_, err := r.u32()
		return err
	case KindTable:
		if err := r.skipRefType(); err != nil {
			return err
		}
		return r.skipLimits()
	case KindMemory:
		return r.skipLimits()
	case KindGlobal:
		if err := r.skipValType(); err != nil {
			return err
		}
		_, err := r.byte()
		return err
	case KindTag:
		if _, err := r.byte(); err != nil {
			return err
		}
		_, err := r.u32()
		return err
	}
	return fmt.Errorf("unknown import kind %#x", byte(k))
}

func (r *reader) skipLimits() error {
	flags, err := r.byte()
	if err != nil {
		return err
	}
	if flags > 0x07 {
		return fmt.Errorf("unknown limits flags %#x", flags)
	}
	if _, err := r.uleb(64); err != nil {
		return err
	}
	if flags&1 != 0 {
		if _, err := r.uleb(64); err != nil {
			return err
		}
	}
	return nil
}

func (r *reader) skipValType() error {
	c, err := r.byte()
	if err != nil {
		return err
	}
	switch c {
	case 0x7f, 0x7e, 0x7d, 0x7c, 0x7b, 0x70, 0x6f:
		return nil
	case 0x63, 0x64:
		_, err := r.uleb(33)
		return err
	}
	if c >= 0x69 && c <= 0x74 {
		return nil // abstract heap type shorthands
	}
	return fmt.Errorf("unknown value type %#x", c)
}

func (r *reader) skipRefType() error { return r.skipValType() }
