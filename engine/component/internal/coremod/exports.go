package coremod

import "fmt"

// Export is one entry of a module's export section.
type Export struct {
	Name string
	Kind Kind
}

// Exports lists the module's exports in order.
func Exports(module []byte) ([]Export, error) {
	secs, err := sections(module)
	if err != nil {
		return nil, err
	}
	for _, sec := range secs {
		if sec.id != exportSectionID {
			continue
		}
		r := &reader{b: module[:sec.end], off: sec.body}
		n, err := r.u32()
		if err != nil {
			return nil, fmt.Errorf("core module: export section: %w", err)
		}
		var out []Export
		for i := uint32(0); i < n; i++ {
			name, err := r.name()
			if err != nil {
				return nil, fmt.Errorf("core module: export %d: %w", i, err)
			}
			k, err := r.byte()
			if err != nil {
				return nil, fmt.Errorf("core module: export %q: %w", name, err)
			}
			if _, err := r.u32(); err != nil {
				return nil, fmt.Errorf("core module: export %q: %w", name, err)
			}
			out = append(out, Export{Name: name, Kind: Kind(k)})
		}
		return out, nil
	}
	return nil, nil
}
