//go:build !(linux || darwin || freebsd)

package component

func newBacking(_ *memPool, capBytes, maxBytes uint64) backing {
	return &heapBacking{capHint: capBytes, maxBytes: maxBytes}
}
