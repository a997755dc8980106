package canon

import (
	"bytes"
	"context"
	"slices"
	"testing"

	"github.com/mur-go/mur/engine/wit"
)

// TestStringEncodings checks the stored bytes, the (tagged) code units and
// the exact realloc sequence of the spec's transcoding algorithms. In the
// realloc sequences old is 0 for a fresh allocation and 1 for "the block
// returned by the previous call".
func TestStringEncodings(t *testing.T) {
	const tag = 1 << 31
	fresh, prev := uint32(0), uint32(1)
	tests := []struct {
		enc   StringEncoding
		s     string
		bytes []byte
		units uint32
		calls []reallocCall
	}{
		{UTF8, "", nil, 0, []reallocCall{{fresh, 0, 1, 0}}},
		{UTF8, "héllo", []byte("héllo"), 6, []reallocCall{{fresh, 0, 1, 6}}},
		{UTF16, "", nil, 0, []reallocCall{{fresh, 0, 2, 0}}},
		{UTF16, "hello", []byte("h\x00e\x00l\x00l\x00o\x00"), 5, []reallocCall{{fresh, 0, 2, 10}}},
		{UTF16, "héllo", []byte("h\x00\xe9\x00l\x00l\x00o\x00"), 5, []reallocCall{{fresh, 0, 2, 12}, {prev, 12, 2, 10}}},
		{UTF16, "h€", []byte("h\x00\xac\x20"), 2, []reallocCall{{fresh, 0, 2, 8}, {prev, 8, 2, 4}}},
		{UTF16, "😀", []byte{0x3d, 0xd8, 0x00, 0xde}, 2, []reallocCall{{fresh, 0, 2, 8}, {prev, 8, 2, 4}}},
		{Latin1UTF16, "", nil, 0, []reallocCall{{fresh, 0, 2, 0}}},
		{Latin1UTF16, "hello", []byte("hello"), 5, []reallocCall{{fresh, 0, 2, 5}}},
		{Latin1UTF16, "héllo", []byte("h\xe9llo"), 5, []reallocCall{{fresh, 0, 2, 6}, {prev, 6, 2, 5}}},
		{Latin1UTF16, "ÿ", []byte("\xff"), 1, []reallocCall{{fresh, 0, 2, 2}, {prev, 2, 2, 1}}},
		{Latin1UTF16, "h€llo", []byte("h\x00\xac\x20l\x00l\x00o\x00"), 5 | tag,
			[]reallocCall{{fresh, 0, 2, 7}, {prev, 7, 2, 14}, {prev, 14, 2, 10}}},
		{Latin1UTF16, "é€", []byte("\xe9\x00\xac\x20"), 2 | tag,
			[]reallocCall{{fresh, 0, 2, 5}, {prev, 5, 2, 10}, {prev, 10, 2, 4}}},
		{Latin1UTF16, "😀", []byte{0x3d, 0xd8, 0x00, 0xde}, 2 | tag,
			[]reallocCall{{fresh, 0, 2, 4}, {prev, 4, 2, 8}, {prev, 8, 2, 4}}},
		{Latin1UTF16, "\u0100", []byte{0x00, 0x01}, 1 | tag,
			[]reallocCall{{fresh, 0, 2, 2}, {prev, 2, 2, 4}, {prev, 4, 2, 2}}},
	}
	ctx := context.Background()
	st := mustType(t, wit.String)
	for _, tt := range tests {
		t.Run(tt.enc.String()+" "+tt.s, func(t *testing.T) {
			e := newEnv(t, tt.enc)
			e.bump.log = true
			flat, err := st.Lower(ctx, e.opts, tt.s, nil)
			if err != nil {
				t.Fatal(err)
			}
			ptr, units := uint32(flat[0]), uint32(flat[1])
			if units != tt.units {
				t.Errorf("units %#x, want %#x", units, tt.units)
			}
			if got := e.bytes(ptr, uint32(len(tt.bytes))); !bytes.Equal(got, tt.bytes) {
				t.Errorf("bytes % x, want % x", got, tt.bytes)
			}
			var calls []reallocCall
			var last uint32
			for i, c := range e.bump.calls {
				if c.old != 0 && c.old == last {
					c.old = prev
				}
				calls = append(calls, c)
				last = bumpResult(e.bump.calls, i)
			}
			if !slices.Equal(calls, tt.calls) {
				t.Errorf("realloc calls %v, want %v", calls, tt.calls)
			}
			if got, err := st.Lift(ctx, e.opts, flat); err != nil || got != tt.s {
				t.Errorf("lift %q, %v", got, err)
			}
		})
	}
}

// bumpResult replays the bump allocator to find the pointer call i returned.
func bumpResult(calls []reallocCall, i int) uint32 {
	top := uint32(bumpBase)
	var p uint32
	for _, c := range calls[:i+1] {
		p = uint32(alignTo(uint64(top), c.align))
		top = p + c.newSize
	}
	return p
}

// TestStringLiftEncodings lifts hand-made guest strings in each encoding.
func TestStringLiftEncodings(t *testing.T) {
	tests := []struct {
		enc   StringEncoding
		bytes []byte
		units uint32
		want  string
	}{
		{UTF8, []byte("a€😀"), 8, "a€😀"},
		{UTF16, []byte{'a', 0, 0xac, 0x20, 0x3d, 0xd8, 0x00, 0xde}, 4, "a€😀"},
		{Latin1UTF16, []byte{'a', 0xe9, 0xff}, 3, "aéÿ"},
		{Latin1UTF16, []byte{'a', 0, 0xac, 0x20}, 2 | 1<<31, "a€"},
	}
	ctx := context.Background()
	st := mustType(t, wit.String)
	for _, tt := range tests {
		e := newEnv(t, tt.enc)
		p := e.alloc(t, 2, uint32(len(tt.bytes)))
		copy(e.bytes(p, uint32(len(tt.bytes))), tt.bytes)
		got, err := st.Lift(ctx, e.opts, []uint64{uint64(p), uint64(tt.units)})
		if err != nil || got != tt.want {
			t.Errorf("%v % x: %q, %v", tt.enc, tt.bytes, got, err)
		}
	}
}
