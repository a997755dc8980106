package wasip2

import "testing"

// A stream's reads start small and double while they come back full, up
// to what the guest asks for, so a short reply allocates no 64 KiB and a
// long body soon reads in large pieces.
func TestReadSizeGrowsWhileFull(t *testing.T) {
	var s inputStream
	for _, tc := range []struct {
		ask, got, want int
	}{
		{64 << 10, firstRead, firstRead},
		{64 << 10, 2 * firstRead, 2 * firstRead},
		{64 << 10, 100, 4 * firstRead}, // a short read keeps the size
		{64 << 10, 4 * firstRead, 4 * firstRead},
		{1000, 1000, 1000}, // never more than asked
		{maxChunk, 0, 8 * firstRead},
	} {
		n := s.readSize(tc.ask)
		if n != tc.want {
			t.Fatalf("read of up to %d: size %d, want %d", tc.ask, n, tc.want)
		}
		s.filled(min(tc.got, n))
	}
	for range 20 {
		n := s.readSize(maxChunk)
		s.filled(n)
	}
	if n := s.readSize(2 * maxChunk); n != maxChunk {
		t.Fatalf("grown read size %d, want the %d bound", n, maxChunk)
	}
}
