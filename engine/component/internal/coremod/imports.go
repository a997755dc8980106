// Package coremod reads and rewrites the import section of core wasm modules.
//
// The engine wires core instances to arbitrary exports of other instances by
// renaming each import to a synthetic (module, field) pair that names the
// providing instance directly, then resolving module names per store through
// wazero's import resolver. See component/RATIONALE.md.
package coremod

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// Kind is an import or export kind in a core module.
type Kind byte

const (
	KindFunc   Kind = 0x00
	KindTable  Kind = 0x01
	KindMemory Kind = 0x02
	KindGlobal Kind = 0x03
	KindTag    Kind = 0x04
)

func (k Kind) String() string {
	switch k {
	case KindFunc:
		return "func"
	case KindTable:
		return "table"
	case KindMemory:
		return "memory"
	case KindGlobal:
		return "global"
	case KindTag:
		return "tag"
	}
	return fmt.Sprintf("kind(%#x)", byte(k))
}

// Import is one entry of a module's import section.
type Import struct {
	Module, Name string
	Kind         Kind
	// desc is the raw descriptor after the kind byte.
	desc []byte
}

const importSectionID = 2

// magic is the preamble of a core module: magic number and version 1.
const magic = "\x00asm\x01\x00\x00\x00"

// Imports lists the module's imports in order.
func Imports(module []byte) ([]Import, error) {
	imps, _, _, err := parse(module)
	return imps, err
}

// RewriteImports returns a copy of module whose imports are renamed by
// rename, called once per import in order. Other sections are copied as is.
func RewriteImports(module []byte, rename func(i int, imp Import) (mod, name string)) ([]byte, error) {
	imps, start, end, err := parse(module)
	if err != nil {
		return nil, err
	}
	if len(imps) == 0 {
		return module, nil
	}
	var body bytes.Buffer
	body.Write(uleb(uint64(len(imps))))
	for i, imp := range imps {
		m, n := rename(i, imp)
		writeName(&body, m)
		writeName(&body, n)
		body.WriteByte(byte(imp.Kind))
		body.Write(imp.desc)
	}
	out := make([]byte, 0, len(module)+body.Len())
	out = append(out, module[:start]...)
	out = append(out, importSectionID)
	out = append(out, uleb(uint64(body.Len()))...)
	out = append(out, body.Bytes()...)
	return append(out, module[end:]...), nil
}

// parse returns the imports and the byte range of the import section
// (including its id and size), or an empty range at the position where an
// import section would go.
func parse(module []byte) (imps []Import, start, end int, err error) {
	secs, err := sections(module)
	if err != nil {
		return nil, 0, 0, err
	}
	for _, sec := range secs {
		if sec.id == importSectionID {
			imps, err := parseImports(&reader{b: module[:sec.end], off: sec.body})
			return imps, sec.start, sec.end, err
		}
	}
	return nil, 8, 8, nil
}

func parseImports(r *reader) ([]Import, error) {
	n, err := r.u32()
	if err != nil {
		return nil, err
	}
	if int(n) > len(r.b)-r.off {
		return nil, fmt.Errorf("core module: byte offset %#x: import count %d exceeds section", r.off, n)
	}
	imps := make([]Import, 0, n)
	for range n {
		var imp Import
		if imp.Module, err = r.name(); err != nil {
			return nil, err
		}
		if imp.Name, err = r.name(); err != nil {
			return nil, err
		}
		k, err := r.byte()
		if err != nil {
			return nil, err
		}
		imp.Kind = Kind(k)
		descStart := r.off
		if err := r.skipDesc(imp.Kind); err != nil {
			return nil, fmt.Errorf("core module: import %q %q: %w", imp.Module, imp.Name, err)
		}
		imp.desc = r.b[descStart:r.off]
		imps = append(imps, imp)
	}
	return imps, nil
}

func writeName(w *bytes.Buffer, s string) {
	w.Write(uleb(uint64(len(s))))
	w.WriteString(s)
}

func uleb(v uint64) []byte {
	return binary.AppendUvarint(nil, v)
}
