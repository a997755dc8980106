package binary

import "github.com/mur-go/mur/engine/component/internal/ast"

// decodeNames decodes the payload of a "component-name" custom section.
// Name sections are advisory, so malformed data yields nil instead of an
// error, and subsections for unknown or unsupported sorts are skipped.
func decodeNames(data []byte) *ast.NameSection {
	r := &reader{b: data, end: len(data)}
	ns := &ast.NameSection{Names: map[ast.Sort]map[uint32]string{}}
	for !r.eof() {
		id, size, err := readSectionHeader(r)
		if err != nil {
			return nil
		}
		s, err := r.sub(size)
		if err != nil {
			return nil
		}
		switch id {
		case 0:
			if ns.Component, err = s.name(); err != nil {
				return nil
			}
		case 1:
			sort, err := decodeSort(s)
			if err != nil {
				continue
			}
			m, err := decodeNameMap(s)
			if err != nil {
				return nil
			}
			ns.Names[sort] = m
		}
	}
	return ns
}

func decodeNameMap(r *reader) (map[uint32]string, error) {
	n, err := r.count()
	if err != nil {
		return nil, err
	}
	m := make(map[uint32]string, n)
	for range n {
		idx, err := r.u32()
		if err != nil {
			return nil, err
		}
		if m[idx], err = r.name(); err != nil {
			return nil, err
		}
	}
	return m, nil
}
