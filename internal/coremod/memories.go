package coremod

import (
	"bytes"
	"fmt"
)

const memorySectionID = 5

// MinMemoryPages returns the sum of the initial sizes, in 64 KiB pages, of
// the memories the module defines (imported memories belong to their
// exporter).
func MinMemoryPages(module []byte) (uint64, error) {
	if len(module) < 8 || !bytes.Equal(module[:8], magic) {
		return 0, fmt.Errorf("core module: bad magic or version")
	}
	r := &reader{b: module, off: 8}
	for r.off < len(r.b) {
		secStart := r.off
		id, err := r.byte()
		if err != nil {
			return 0, err
		}
		size, err := r.u32()
		if err != nil {
			return 0, err
		}
		if uint64(size) > uint64(len(r.b)-r.off) {
			return 0, fmt.Errorf("core module: byte offset %#x: section %d overruns the module", secStart, id)
		}
		body := r.off
		r.off += int(size)
		if id != memorySectionID {
			continue
		}
		sr := &reader{b: r.b[:r.off], off: body}
		n, err := sr.u32()
		if err != nil {
			return 0, err
		}
		var total uint64
		for range n {
			flags, err := sr.byte()
			if err != nil {
				return 0, err
			}
			if flags > 0x07 {
				return 0, fmt.Errorf("core module: unknown memory limits flags %#x", flags)
			}
			minPages, err := sr.uleb(64)
			if err != nil {
				return 0, err
			}
			if flags&1 != 0 {
				if _, err := sr.uleb(64); err != nil {
					return 0, err
				}
			}
			total += minPages
		}
		return total, nil
	}
	return 0, nil
}
