//go:build !(linux || darwin || freebsd)

package component

func newBacking(capBytes, maxBytes uint64) backing {
	return &heapBacking{capHint: capBytes, maxBytes: maxBytes}
}
