// Package binary decodes the WebAssembly component model binary format
// into an ast.Component. Core modules embedded in a component are kept as
// raw bytes; decoding them is left to the core engine.
package binary

import (
	"fmt"

	"github.com/mur-go/mur/engine/component/internal/ast"
)

// maxDepth bounds the nesting of components and component/instance types,
// so hostile input cannot exhaust the stack.
const maxDepth = 64

// Section ids of the component binary format.
const (
	secCustom       = 0
	secCoreModule   = 1
	secCoreInstance = 2
	secCoreType     = 3
	secComponent    = 4
	secInstance     = 5
	secAlias        = 6
	secType         = 7
	secCanon        = 8
	secStart        = 9
	secImport       = 10
	secExport       = 11
	secValue        = 12
)

// DecodeComponent decodes a component binary. Malformed input yields a
// *DecodeError; well-formed input using an unimplemented feature yields a
// *NotSupportedError. Core module bytes and custom section data in the
// result are sub-slices of b, so b must not be modified afterwards.
func DecodeComponent(b []byte) (*ast.Component, error) {
	return decodeComponent(&reader{b: b, end: len(b)}, 0)
}

// decodeComponent decodes the preamble and sections in r, which must be
// consumed entirely.
func decodeComponent(r *reader, depth int) (*ast.Component, error) {
	if depth > maxDepth {
		return nil, failAt(r.pos, ErrTooDeep, "components nested more than %d deep", maxDepth)
	}
	if err := readPreamble(r); err != nil {
		return nil, within(err, "preamble")
	}
	c := &ast.Component{}
	for !r.eof() {
		secOff := r.pos
		id, size, err := readSectionHeader(r)
		if err != nil {
			return nil, within(err, "section header")
		}
		s, err := r.sub(size)
		if err != nil {
			return nil, within(err, fmt.Sprintf("%s section size", sectionName(id)))
		}
		if err := decodeSection(c, id, secOff, s, depth); err != nil {
			return nil, err
		}
		if !s.eof() {
			return nil, failAt(s.pos, ErrSectionSize, "%s section has %d bytes left over", sectionName(id), s.remaining())
		}
	}
	return c, nil
}

func readSectionHeader(r *reader) (id byte, size int, err error) {
	if id, err = r.byte(); err != nil {
		return 0, 0, err
	}
	n, err := r.u32()
	return id, int(n), err
}

// readPreamble checks magic, version 0x0d and layer 1. A core module
// (layer 0) is reported as such, because it is the most likely mistake.
func readPreamble(r *reader) error {
	off := r.pos
	h, err := r.bytes(8)
	if err != nil {
		return failAt(off, ErrBadPreamble, "input shorter than the 8-byte preamble")
	}
	if string(h[:4]) != "\x00asm" {
		return failAt(off, ErrBadPreamble, "bad magic % x", h[:4])
	}
	version := uint16(h[4]) | uint16(h[5])<<8
	layer := uint16(h[6]) | uint16(h[7])<<8
	switch {
	case layer == 0:
		return failAt(off+6, ErrBadPreamble, "this is a core module, not a component")
	case layer != 1:
		return failAt(off+6, ErrBadPreamble, "unknown layer %d", layer)
	case version != 0x0d:
		return failAt(off+4, ErrBadPreamble, "component binary version 0x%x, want 0xd", version)
	}
	return nil
}

func sectionName(id byte) string {
	switch id {
	case secCustom:
		return "custom"
	case secCoreModule:
		return "core module"
	case secCoreInstance:
		return "core instance"
	case secCoreType:
		return "core type"
	case secComponent:
		return "component"
	case secInstance:
		return "instance"
	case secAlias:
		return "alias"
	case secType:
		return "type"
	case secCanon:
		return "canon"
	case secStart:
		return "start"
	case secImport:
		return "import"
	case secExport:
		return "export"
	case secValue:
		return "value"
	}
	return fmt.Sprintf("unknown (id %d)", id)
}

// decodeSection decodes the payload s of section id, whose header starts
// at secOff, into c.
func decodeSection(c *ast.Component, id byte, secOff int, s *reader, depth int) error {
	switch id {
	case secCustom:
		return within(decodeCustom(c, s), "custom section")
	case secCoreModule:
		m, err := decodeCoreModule(s)
		if err != nil {
			return within(err, "core module section")
		}
		c.Defs = append(c.Defs, m)
		return nil
	case secComponent:
		off := s.pos
		nested, err := decodeComponent(s, depth+1)
		if err != nil {
			return within(err, "nested component")
		}
		c.Defs = append(c.Defs, &ast.NestedComponent{Component: nested, Offset: off})
		return nil
	case secStart:
		st, err := decodeStart(s)
		if err != nil {
			return within(err, "start section")
		}
		c.Defs = append(c.Defs, st)
		return nil
	case secValue:
		return unsupported(s.pos, "value section")
	}
	entry := vectorEntry(id, depth)
	if entry == nil {
		return failAt(secOff, ErrBadOpcode, "unknown section id %d", id)
	}
	name := sectionName(id)
	n, err := s.count()
	if err != nil {
		return within(err, name+" section")
	}
	for i := range n {
		d, err := entry(s)
		if err != nil {
			return within(err, fmt.Sprintf("%s section entry %d", name, i))
		}
		c.Defs = append(c.Defs, d)
	}
	return nil
}

// vectorEntry returns the decoder of one element of a vector section, or
// nil for ids that are not vector sections.
func vectorEntry(id byte, depth int) func(*reader) (ast.Def, error) {
	switch id {
	case secCoreInstance:
		return decodeCoreInstance
	case secCoreType:
		return func(r *reader) (ast.Def, error) { return decodeCoreType(r, true) }
	case secInstance:
		return decodeInstance
	case secAlias:
		return func(r *reader) (ast.Def, error) { return decodeAlias(r) }
	case secType:
		return func(r *reader) (ast.Def, error) { return decodeType(r, depth) }
	case secCanon:
		return decodeCanon
	case secImport:
		return func(r *reader) (ast.Def, error) { return decodeImport(r) }
	case secExport:
		return decodeExport
	}
	return nil
}
