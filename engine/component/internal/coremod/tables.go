package coremod

import (
	"bytes"
	"fmt"
)

const tableSectionID = 4

// TableTooLargeError reports a table whose initial size already exceeds
// the cap given to CapTables.
type TableTooLargeError struct {
	Min, Cap uint64
}

func (e *TableTooLargeError) Error() string {
	return fmt.Sprintf("table of %d elements exceeds the cap of %d", e.Min, e.Cap)
}

// CapTables returns a copy of module whose own tables may grow to at most
// maxElems elements: each table's maximum becomes min(max, maxElems), so
// table.grow past the cap fails inside the guest like any refused growth.
// A table that starts larger than the cap is a *TableTooLargeError.
func CapTables(module []byte, maxElems uint32) ([]byte, error) {
	secs, err := sections(module)
	if err != nil {
		return nil, err
	}
	for _, sec := range secs {
		if sec.id != tableSectionID {
			continue
		}
		body, err := capTableSection(&reader{b: module[:sec.end], off: sec.body}, uint64(maxElems))
		if err != nil {
			return nil, err
		}
		out := make([]byte, 0, len(module)+len(body))
		out = append(out, module[:sec.start]...)
		out = appendSection(out, tableSectionID, body)
		return append(out, module[sec.end:]...), nil
	}
	return module, nil
}

// Tables reports how large a module's tables can be: the largest initial
// size of the tables it defines, and whether its code has table.grow, the
// one way a table changes size after instantiation (the host API has
// none). Tables that never grow need no cap compiled in: a check of their
// initial size against the cap is the whole limit.
func Tables(module []byte) (minElems uint64, grows bool, err error) {
	secs, err := sections(module)
	if err != nil {
		return 0, false, err
	}
	for _, sec := range secs {
		r := &reader{b: module[:sec.end], off: sec.body}
		switch sec.id {
		case tableSectionID:
			if minElems, err = largestTable(r); err != nil {
				return 0, false, err
			}
		case codeSectionID:
			why, err := scanCode(module[sec.body:sec.end], func(op byte, sub uint32) string {
				if op == 0xfc && sub == 15 {
					return "table.grow"
				}
				return ""
			})
			if err != nil {
				return 0, false, err
			}
			grows = why != ""
		}
	}
	return minElems, grows, nil
}

func largestTable(r *reader) (uint64, error) {
	n, err := r.u32()
	if err != nil {
		return 0, err
	}
	var largest uint64
	for range n {
		if err := r.skipRefType(); err != nil {
			return 0, fmt.Errorf("core module: table section: %w", err)
		}
		flags, err := r.byte()
		if err != nil {
			return 0, err
		}
		if flags > 1 {
			return 0, fmt.Errorf("core module: table limits flags %#x are not supported", flags)
		}
		minElems, err := r.uleb(32)
		if err != nil {
			return 0, err
		}
		if flags == 1 {
			if _, err := r.uleb(32); err != nil {
				return 0, err
			}
		}
		largest = max(largest, minElems)
	}
	return largest, nil
}

func capTableSection(r *reader, maxElems uint64) ([]byte, error) {
	n, err := r.u32()
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	out.Write(uleb(uint64(n)))
	for range n {
		refStart := r.off
		if err := r.skipRefType(); err != nil {
			return nil, fmt.Errorf("core module: table section: %w", err)
		}
		out.Write(r.b[refStart:r.off])
		flags, err := r.byte()
		if err != nil {
			return nil, err
		}
		if flags > 1 {
			return nil, fmt.Errorf("core module: table limits flags %#x are not supported", flags)
		}
		minElems, err := r.uleb(32)
		if err != nil {
			return nil, err
		}
		maxV := maxElems
		if flags == 1 {
			m, err := r.uleb(32)
			if err != nil {
				return nil, err
			}
			maxV = min(m, maxElems)
		}
		if minElems > maxElems {
			return nil, &TableTooLargeError{Min: minElems, Cap: maxElems}
		}
		out.WriteByte(1)
		out.Write(uleb(minElems))
		out.Write(uleb(maxV))
	}
	if r.off != len(r.b) {
		return nil, fmt.Errorf("core module: table section has %d trailing bytes", len(r.b)-r.off)
	}
	return out.Bytes(), nil
}
