package storelife

import (
	"bytes"
	"testing"
)

// The runs of a snapshot rebuild the initialised memory from the fresh
// one, a memory that grew during initialisation included, and nothing
// outside a differing 64-byte chunk is copied.
func TestDiffRunsRebuildTheMemory(t *testing.T) {
	tests := []struct {
		name    string
		size    int // of the fresh memory; the initialised one is 512
		changed []int
		chunks  int // 64-byte chunks the runs copy
		runs    int
	}{
		{name: "unchanged", size: 512},
		{name: "first and last byte", size: 512, changed: []int{0, 511}, chunks: 2, runs: 2},
		{name: "neighbouring chunks merge", size: 512, changed: []int{100, 130, 200}, chunks: 3, runs: 1},
		{name: "grown, zeros past the fresh end", size: 256},
		{name: "grown, written past the fresh end", size: 256, changed: []int{300, 480}, chunks: 2, runs: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old := make([]byte, tt.size)
			for i := range old {
				old[i] = byte(i % 7)
			}
			cur := make([]byte, 512)
			copy(cur, old)
			for _, off := range tt.changed {
				cur[off]++
			}
			runs := diffRuns(cur, old)
			got := make([]byte, 512)
			copy(got, old)
			copied := 0
			for _, r := range runs {
				copy(got[r.off:], r.data)
				copied += len(r.data)
			}
			if !bytes.Equal(got, cur) {
				t.Fatalf("the runs rebuild a different memory")
			}
			if copied != tt.chunks*runChunk || len(runs) != tt.runs {
				t.Fatalf("%d runs copy %d bytes, want %d runs of %d", len(runs), copied, tt.runs, tt.chunks*runChunk)
			}
		})
	}
}
