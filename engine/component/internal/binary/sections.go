package binary

import (
	"github.com/mur-go/mur/engine/component/internal/ast"
)

// coreModuleHeader is the preamble of a core module: magic, version 1.
const coreModuleHeader = "\x00asm\x01\x00\x00\x00"

func decodeCustom(c *ast.Component, s *reader) error {
	off := s.pos
	name, err := s.name()
	if err != nil {
		return err
	}
	data, err := s.bytes(s.remaining())
	if err != nil {
		return err
	}
	c.Customs = append(c.Customs, ast.Custom{Name: name, Data: data, Offset: off})
	if name == "component-name" && c.Names == nil {
		c.Names = decodeNames(data)
	}
	return nil
}

// decodeCoreModule keeps the module bytes; only the preamble is checked so
// that a misplaced component or garbage fails here with a clear message.
func decodeCoreModule(s *reader) (*ast.CoreModule, error) {
	off := s.pos
	b, err := s.bytes(s.remaining())
	if err != nil {
		return nil, err
	}
	if len(b) < len(coreModuleHeader) || string(b[:len(coreModuleHeader)]) != coreModuleHeader {
		return nil, failAt(off, ErrBadPreamble, "payload does not start with a core module preamble")
	}
	return &ast.CoreModule{Bytes: b, Offset: off}, nil
}

func decodeCoreInstance(r *reader) (ast.Def, error) {
	off := r.pos
	kind, err := r.byte()
	if err != nil {
		return nil, err
	}
	switch kind {
	case 0x00:
		m, err := r.u32()
		if err != nil {
			return nil, err
		}
		args, err := vec(r, decodeCoreInstantiateArg)
		if err != nil {
			return nil, err
		}
		return &ast.CoreInstantiate{ModuleIdx: m, Args: args, Offset: off}, nil
	case 0x01:
		exports, err := vec(r, decodeCoreInlineExport)
		if err != nil {
			return nil, err
		}
		return &ast.CoreInstanceExports{Exports: exports, Offset: off}, nil
	}
	return nil, failAt(off, ErrBadOpcode, "unknown core instance kind 0x%02x", kind)
}

func decodeCoreInstantiateArg(r *reader) (ast.CoreInstantiateArg, error) {
	var a ast.CoreInstantiateArg
	var err error
	if a.Name, err = r.name(); err != nil {
		return a, err
	}
	off := r.pos
	sort, err := r.byte()
	if err != nil {
		return a, err
	}
	if sort != 0x12 {
		return a, failAt(off, ErrBadOpcode, "core instantiation argument sort 0x%02x, want 0x12 (instance)", sort)
	}
	a.InstanceIdx, err = r.u32()
	return a, err
}

func decodeCoreInlineExport(r *reader) (ast.CoreInlineExport, error) {
	var e ast.CoreInlineExport
	var err error
	if e.Name, err = r.name(); err != nil {
		return e, err
	}
	if e.Sort, err = decodeCoreSort(r); err != nil {
		return e, err
	}
	e.Idx, err = r.u32()
	return e, err
}

func decodeInstance(r *reader) (ast.Def, error) {
	off := r.pos
	kind, err := r.byte()
	if err != nil {
		return nil, err
	}
	switch kind {
	case 0x00:
		c, err := r.u32()
		if err != nil {
			return nil, err
		}
		args, err := vec(r, decodeInstantiateArg)
		if err != nil {
			return nil, err
		}
		return &ast.Instantiate{ComponentIdx: c, Args: args, Offset: off}, nil
	case 0x01:
		exports, err := vec(r, decodeInlineExport)
		if err != nil {
			return nil, err
		}
		return &ast.InstanceExports{Exports: exports, Offset: off}, nil
	}
	return nil, failAt(off, ErrBadOpcode, "unknown instance kind 0x%02x", kind)
}

func decodeInstantiateArg(r *reader) (ast.InstantiateArg, error) {
	var a ast.InstantiateArg
	var err error
	if a.Name, err = r.name(); err != nil {
		return a, err
	}
	if a.Sort, err = decodeExternSort(r); err != nil {
		return a, err
	}
	a.Idx, err = r.u32()
	return a, err
}

func decodeInlineExport(r *reader) (ast.InlineExport, error) {
	var e ast.InlineExport
	var err error
	if e.Name, e.Attrs, err = decodeExternName(r); err != nil {
		return e, err
	}
	if e.Sort, err = decodeExternSort(r); err != nil {
		return e, err
	}
	e.Idx, err = r.u32()
	return e, err
}

func decodeAlias(r *reader) (*ast.Alias, error) {
	off := r.pos
	sort, err := decodeSort(r)
	if err != nil {
		return nil, err
	}
	a := &ast.Alias{Sort: sort, Offset: off}
	targetOff := r.pos
	target, err := r.byte()
	if err != nil {
		return nil, err
	}
	switch target {
	case 0x00:
		a.Kind = ast.AliasInstanceExport
		if sort.IsCore() && sort != ast.SortCoreModule {
			return nil, failAt(off, ErrInvalid, "a %s cannot be aliased from a component instance export", sort)
		}
	case 0x01:
		a.Kind = ast.AliasCoreInstanceExport
		switch sort {
		case ast.SortCoreFunc, ast.SortCoreTable, ast.SortCoreMemory, ast.SortCoreGlobal, ast.SortCoreTag:
		default:
			return nil, failAt(off, ErrInvalid, "a %s cannot be aliased from a core instance export", sort)
		}
	case 0x02:
		a.Kind = ast.AliasOuter
		switch sort {
		case ast.SortCoreType, ast.SortCoreModule, ast.SortType, ast.SortComponent:
		default:
			return nil, failAt(off, ErrInvalid, "a %s cannot be an outer alias", sort)
		}
		if a.Count, err = r.u32(); err != nil {
			return nil, err
		}
		a.Idx, err = r.u32()
		return a, err
	default:
		return nil, failAt(targetOff, ErrBadOpcode, "unknown alias target 0x%02x", target)
	}
	if a.InstanceIdx, err = r.u32(); err != nil {
		return nil, err
	}
	a.Name, err = r.name()
	return a, err
}

func decodeImport(r *reader) (*ast.Import, error) {
	im := &ast.Import{Offset: r.pos}
	var err error
	if im.Name, im.Attrs, err = decodeExternName(r); err != nil {
		return nil, err
	}
	if im.Desc, err = decodeExternDesc(r); err != nil {
		return nil, err
	}
	return im, nil
}

func decodeExport(r *reader) (ast.Def, error) {
	ex := &ast.Export{Offset: r.pos}
	var err error
	if ex.Name, ex.Attrs, err = decodeExternName(r); err != nil {
		return nil, err
	}
	if ex.Sort, err = decodeExternSort(r); err != nil {
		return nil, err
	}
	if ex.Idx, err = r.u32(); err != nil {
		return nil, err
	}
	off := r.pos
	has, err := r.byte()
	if err != nil {
		return nil, err
	}
	switch has {
	case 0x00:
	case 0x01:
		d, err := decodeExternDesc(r)
		if err != nil {
			return nil, err
		}
		ex.Desc = &d
	default:
		return nil, failAt(off, ErrBadOpcode, "unknown optional export type flag 0x%02x", has)
	}
	return ex, nil
}

// decodeStart accepts only a start function without argument or result
// values, since values are not supported.
func decodeStart(s *reader) (*ast.Start, error) {
	st := &ast.Start{Offset: s.pos}
	var err error
	if st.FuncIdx, err = s.u32(); err != nil {
		return nil, err
	}
	off := s.pos
	args, err := s.count()
	if err != nil {
		return nil, err
	}
	if args != 0 {
		return nil, unsupported(off, "component start function with value arguments")
	}
	off = s.pos
	results, err := s.u32()
	if err != nil {
		return nil, err
	}
	if results != 0 {
		return nil, unsupported(off, "component start function with value results")
	}
	return st, nil
}

// decodeSort reads a sort: 0x00 followed by a core sort, or a
// component-level sort byte.
func decodeSort(r *reader) (ast.Sort, error) {
	off := r.pos
	b, err := r.byte()
	if err != nil {
		return 0, err
	}
	switch b {
	case 0x00:
		return decodeCoreSort(r)
	case 0x01:
		return ast.SortFunc, nil
	case 0x02:
		return 0, unsupported(off, "component values (value sort)")
	case 0x03:
		return ast.SortType, nil
	case 0x04:
		return ast.SortComponent, nil
	case 0x05:
		return ast.SortInstance, nil
	}
	return 0, failAt(off, ErrBadOpcode, "unknown sort 0x%02x", b)
}

func decodeCoreSort(r *reader) (ast.Sort, error) {
	off := r.pos
	b, err := r.byte()
	if err != nil {
		return 0, err
	}
	switch b {
	case 0x00:
		return ast.SortCoreFunc, nil
	case 0x01:
		return ast.SortCoreTable, nil
	case 0x02:
		return ast.SortCoreMemory, nil
	case 0x03:
		return ast.SortCoreGlobal, nil
	case 0x04:
		return ast.SortCoreTag, nil
	case 0x10:
		return ast.SortCoreType, nil
	case 0x11:
		return ast.SortCoreModule, nil
	case 0x12:
		return ast.SortCoreInstance, nil
	}
	return 0, failAt(off, ErrBadOpcode, "unknown core sort 0x%02x", b)
}

// decodeExternSort reads the sort of an import/export-like item, where
// the only core sort allowed is core module.
func decodeExternSort(r *reader) (ast.Sort, error) {
	off := r.pos
	s, err := decodeSort(r)
	if err == nil && s.IsCore() && s != ast.SortCoreModule {
		return 0, failAt(off, ErrInvalid, "a %s cannot be imported, exported or passed to a component", s)
	}
	return s, err
}

// decodeExternName reads an import/export name. 0x00 is the current
// encoding; 0x01 is an older "interface name" marker that wasm-tools still
// accepts and means the same; 0x02 adds a vector of attributes.
func decodeExternName(r *reader) (string, ast.NameAttrs, error) {
	var attrs ast.NameAttrs
	off := r.pos
	kind, err := r.byte()
	if err != nil {
		return "", attrs, err
	}
	if kind > 0x02 {
		return "", attrs, failAt(off, ErrBadOpcode, "unknown name kind 0x%02x", kind)
	}
	name, err := r.name()
	if err != nil || kind != 0x02 {
		return name, attrs, err
	}
	n, err := r.count()
	if err != nil {
		return "", attrs, err
	}
	var seen [3]bool
	for range n {
		aoff := r.pos
		ak, err := r.byte()
		if err != nil {
			return "", attrs, err
		}
		var field *string
		switch ak {
		case 0x00:
			field = &attrs.Implements
		case 0x01:
			field = &attrs.VersionSuffix
		case 0x02:
			field = &attrs.ExternalID
		default:
			return "", attrs, failAt(aoff, ErrBadOpcode, "unknown name attribute 0x%02x", ak)
		}
		v, err := r.name()
		if err != nil {
			return "", attrs, err
		}
		if seen[ak] {
			return "", attrs, failAt(aoff, ErrInvalid, "duplicate name attribute 0x%02x", ak)
		}
		seen[ak] = true
		*field = v
		attrs.HasImplements = attrs.HasImplements || ak == 0x00
	}
	return name, attrs, nil
}

func decodeExternDesc(r *reader) (ast.ExternDesc, error) {
	var d ast.ExternDesc
	off := r.pos
	kind, err := r.byte()
	if err != nil {
		return d, err
	}
	switch kind {
	case 0x00:
		coff := r.pos
		cs, err := r.byte()
		if err != nil {
			return d, err
		}
		if cs != 0x11 {
			return d, failAt(coff, ErrBadOpcode, "core sort 0x%02x in extern type, want 0x11 (module)", cs)
		}
		d.Kind = ast.ExternCoreModule
	case 0x01:
		d.Kind = ast.ExternFunc
	case 0x02:
		return d, unsupported(off, "component values (value import/export)")
	case 0x03:
		d.Kind = ast.ExternType
		boff := r.pos
		b, err := r.byte()
		if err != nil {
			return d, err
		}
		switch b {
		case 0x00:
			d.Bound = ast.BoundEq
		case 0x01:
			d.Bound = ast.BoundSubResource
			return d, nil
		default:
			return d, failAt(boff, ErrBadOpcode, "unknown type bound 0x%02x", b)
		}
	case 0x04:
		d.Kind = ast.ExternComponent
	case 0x05:
		d.Kind = ast.ExternInstance
	default:
		return d, failAt(off, ErrBadOpcode, "unknown extern type 0x%02x", kind)
	}
	d.TypeIdx, err = r.u32()
	return d, err
}
