package coremod

import "fmt"

// section is one section of a core module: its id and the byte range of
// its body within the module.
type section struct {
	id         byte
	start, end int // the whole section, id byte included
	body       int // start of the body
}

// sections splits a module into its sections.
func sections(module []byte) ([]section, error) {
	if len(module) < 8 || string(module[:8]) != magic {
		return nil, fmt.Errorf("core module: bad magic or version")
	}
	r := &reader{b: module, off: 8}
	var out []section
	for r.off < len(r.b) {
		start := r.off
		id, err := r.byte()
		if err != nil {
			return nil, err
		}
		size, err := r.u32()
		if err != nil {
			return nil, err
		}
		if uint64(size) > uint64(len(r.b)-r.off) {
			return nil, fmt.Errorf("core module: byte offset %#x: section %d overruns the module", start, id)
		}
		body := r.off
		r.off += int(size)
		out = append(out, section{id: id, start: start, end: r.off, body: body})
	}
	return out, nil
}

// sectionRank orders section ids as the binary format requires (custom
// sections, rank 0, may appear anywhere).
func sectionRank(id byte) int {
	switch id {
	case 0:
		return 0
	case 13: // tag, between memory and global
		return 55
	case 12: // data count, between element and code
		return 95
	}
	return int(id) * 10
}

// appendSection appends a section with the given body.
func appendSection(out []byte, id byte, body []byte) []byte {
	out = append(out, id)
	out = append(out, uleb(uint64(len(body)))...)
	return append(out, body...)
}
