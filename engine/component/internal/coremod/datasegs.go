package coremod

import (
	"bytes"
	"fmt"
	"sort"
)

const (
	dataSectionID      = 11
	dataCountSectionID = 12
	// maxDataGap is the largest run of zero bytes merging writes between
	// two segments.
	maxDataGap = 64
)

// dataSeg is an active segment for memory 0 at a constant offset.
type dataSeg struct {
	offset uint32
	data   []byte
}

func (s dataSeg) end() uint64 { return uint64(s.offset) + uint64(len(s.data)) }

// MergeDataSegments returns a copy of module in which consecutive active
// data segments separated by at most 64 bytes are merged, and how many
// segments there were before and after. Go's toolchain emits tens of
// thousands of small segments, and wazero evaluates each one's offset on
// every instantiation.
//
// Merging writes zeros into the gaps, so it is done only where that cannot
// change the memory a guest starts with: the module defines (does not
// import) its memory, which is all zeros before segments are applied; no
// segment applied earlier covers a gap; every segment is active on memory 0
// at an i32.const offset; and there is no data count section, so no
// instruction refers to segments by index. Otherwise the module is returned
// unchanged.
func MergeDataSegments(module []byte) (out []byte, before, after int, err error) {
	secs, err := sections(module)
	if err != nil {
		return nil, 0, 0, err
	}
	var data *section
	for i := range secs {
		s := &secs[i]
		switch s.id {
		case dataCountSectionID:
			return module, 0, 0, nil
		case importSectionID:
			imps, err := parseImports(&reader{b: module[:s.end], off: s.body})
			if err != nil {
				return nil, 0, 0, err
			}
			for _, imp := range imps {
				if imp.Kind == KindMemory {
					return module, 0, 0, nil
				}
			}
		case dataSectionID:
			data = s
		}
	}
	if data == nil {
		return module, 0, 0, nil
	}
	segs, ok, err := parseActiveSegments(module[data.body:data.end])
	if err != nil || !ok {
		return module, len(segs), len(segs), err
	}
	merged := mergeSegments(segs)
	if len(merged) == len(segs) {
		return module, len(segs), len(segs), nil
	}
	var body bytes.Buffer
	body.Write(uleb(uint64(len(merged))))
	for _, s := range merged {
		body.Write([]byte{0x00, 0x41})
		body.Write(sleb32(int32(s.offset)))
		body.WriteByte(0x0b)
		body.Write(uleb(uint64(len(s.data))))
		body.Write(s.data)
	}
	out = make([]byte, 0, len(module))
	out = append(out, module[:data.start]...)
	out = appendSection(out, dataSectionID, body.Bytes())
	return append(out, module[data.end:]...), len(segs), len(merged), nil
}

// parseActiveSegments reads a data section; ok is false when a segment is
// not active on memory 0 at a non-negative i32.const offset.
func parseActiveSegments(body []byte) ([]dataSeg, bool, error) {
	r := &reader{b: body}
	n, err := r.u32()
	if err != nil {
		return nil, false, err
	}
	if int(n) > len(body) {
		return nil, false, fmt.Errorf("core module: data segment count %d exceeds the section", n)
	}
	segs := make([]dataSeg, 0, n)
	for range n {
		flags, err := r.u32()
		if err != nil || flags != 0 {
			return nil, false, err
		}
		if op, err := r.byte(); err != nil || op != 0x41 {
			return nil, false, err
		}
		off, err := r.sleb(32)
		if err != nil {
			return nil, false, err
		}
		if op, err := r.byte(); err != nil || op != 0x0b {
			return nil, false, err
		}
		size, err := r.u32()
		if err != nil {
			return nil, false, err
		}
		if int(size) > len(r.b)-r.off {
			return nil, false, errEOF
		}
		if off < 0 {
			return nil, false, nil
		}
		segs = append(segs, dataSeg{offset: uint32(off), data: r.b[r.off : r.off+int(size)]})
		r.off += int(size)
	}
	return segs, r.off == len(r.b), nil
}

// mergeSegments joins runs of consecutive segments (in file order) whose
// gaps are small and covered by no other segment, allocating each merged
// segment once.
func mergeSegments(segs []dataSeg) []dataSeg {
	// A gap [lo, hi) may be zero-filled if no segment starting below hi
	// ends above lo: byStart sorts segments by offset and maxEnd[i] is the
	// furthest end among the first i of them. Counting segments applied
	// after the gap's run too only makes the test stricter.
	byStart := make([]dataSeg, len(segs))
	copy(byStart, segs)
	sort.Slice(byStart, func(i, j int) bool { return byStart[i].offset < byStart[j].offset })
	maxEnd := make([]uint64, len(byStart)+1)
	for i, s := range byStart {
		maxEnd[i+1] = max(maxEnd[i], s.end())
	}
	gapFree := func(lo, hi uint64) bool {
		n := sort.Search(len(byStart), func(i int) bool { return uint64(byStart[i].offset) >= hi })
		return maxEnd[n] <= lo
	}

	var out []dataSeg
	for i := 0; i < len(segs); {
		j, end := i+1, segs[i].end()
		for j < len(segs) {
			next := uint64(segs[j].offset)
			if next < end || next-end > maxDataGap || !gapFree(end, next) {
				break
			}
			end = segs[j].end()
			j++
		}
		if j == i+1 {
			out = append(out, segs[i])
			i = j
			continue
		}
		start := segs[i].offset
		merged := make([]byte, end-uint64(start))
		for _, s := range segs[i:j] {
			copy(merged[s.offset-start:], s.data)
		}
		out = append(out, dataSeg{offset: start, data: merged})
		i = j
	}
	return out
}

func sleb32(v int32) []byte {
	var out []byte
	for {
		b := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && b&0x40 == 0) || (v == -1 && b&0x40 != 0) {
			return append(out, b)
		}
		out = append(out, b|0x80)
	}
}
