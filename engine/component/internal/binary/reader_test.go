package binary

import (
	"errors"
	"testing"
)

func TestULEB(t *testing.T) {
	tests := []struct {
		in   []byte
		bits uint
		want uint64
		err  error
	}{
		{b(0x00), 32, 0, nil},
		{b(0xe5, 0x8e, 0x26), 32, 624485, nil},
		{b(0x80, 0x00), 32, 0, nil}, // redundant but within 5 bytes: allowed
		{b(0xff, 0xff, 0xff, 0xff, 0x0f), 32, 1<<32 - 1, nil},
		{b(0xff, 0xff, 0xff, 0xff, 0x1f), 32, 0, ErrBadLEB128},
		{b(0x80, 0x80, 0x80, 0x80, 0x80, 0x00), 32, 0, ErrBadLEB128},
		{b(0x80), 32, 0, ErrUnexpectedEOF},
		{b(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01), 64, 1<<64 - 1, nil},
		{b(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02), 64, 0, ErrBadLEB128},
	}
	for _, tt := range tests {
		r := &reader{b: tt.in, end: len(tt.in)}
		got, err := r.uleb(tt.bits)
		if !errors.Is(err, tt.err) || (err == nil && got != tt.want) {
			t.Errorf("uleb%d(% x) = %d, %v; want %d, %v", tt.bits, tt.in, got, err, tt.want, tt.err)
		}
	}
}

func TestS33(t *testing.T) {
	tests := []struct {
		in   []byte
		want int64
		err  error
	}{
		{b(0x00), 0, nil},
		{b(0x3f), 63, nil},
		{b(0x7f), -1, nil},
		{b(0x40), -64, nil},
		{b(0xc0, 0x00), 64, nil},
		{b(0xff, 0xff, 0xff, 0xff, 0x0f), 1<<32 - 1, nil},
		{b(0x80, 0x80, 0x80, 0x80, 0x70), -(1 << 32), nil},
		{b(0xff, 0xff, 0xff, 0xff, 0x1f), 0, ErrBadLEB128},
		{b(0x80, 0x80, 0x80, 0x80, 0x40), 0, ErrBadLEB128},
		{b(0x80, 0x80, 0x80, 0x80, 0x80, 0x00), 0, ErrBadLEB128},
	}
	for _, tt := range tests {
		r := &reader{b: tt.in, end: len(tt.in)}
		got, err := r.s33()
		if !errors.Is(err, tt.err) || (err == nil && got != tt.want) {
			t.Errorf("s33(% x) = %d, %v; want %d, %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}
