package coremod

import "fmt"

const memorySectionID = 5

// MinMemoryPages returns the sum of the initial sizes, in 64 KiB pages, of
// the memories the module defines (imported memories belong to their
// exporter).
func MinMemoryPages(module []byte) (uint64, error) {
	secs, err := sections(module)
	if err != nil {
		return 0, err
	}
	for _, sec := range secs {
		if sec.id != memorySectionID {
			continue
		}
		r := &reader{b: module[:sec.end], off: sec.body}
		n, err := r.u32()
		if err != nil {
			return 0, err
		}
		var total uint64
		for range n {
			flags, err := r.byte()
			if err != nil {
				return 0, err
			}
			if flags > 0x07 {
				return 0, fmt.Errorf("core module: unknown memory limits flags %#x", flags)
			}
			minPages, err := r.uleb(64)
			if err != nil {
				return 0, err
			}
			if flags&1 != 0 {
				if _, err := r.uleb(64); err != nil {
					return 0, err
				}
			}
			total += minPages
		}
		return total, nil
	}
	return 0, nil
}
