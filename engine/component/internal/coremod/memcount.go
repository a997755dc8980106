package coremod

// MemoryCount returns how many memories the module imports and defines:
// more than one needs the multi-memory proposal.
func MemoryCount(module []byte) (int, error) {
	imps, err := Imports(module)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, imp := range imps {
		if imp.Kind == KindMemory {
			n++
		}
	}
	secs, err := sections(module)
	if err != nil {
		return 0, err
	}
	for _, sec := range secs {
		if sec.id == memorySectionID {
			r := &reader{b: module[:sec.end], off: sec.body}
			defined, err := r.u32()
			if err != nil {
				return 0, err
			}
			n += int(defined)
		}
	}
	return n, nil
}
