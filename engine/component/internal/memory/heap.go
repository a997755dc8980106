//go:build !(linux || darwin || freebsd)

package memory

func newBacking(_ *Pool, capBytes, maxBytes uint64) backing {
	return &heapBacking{capHint: capBytes, maxBytes: maxBytes}
}
