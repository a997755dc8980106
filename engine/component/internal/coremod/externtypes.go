package coremod

import (
	"fmt"
	"strings"
)

// ExternType is the type of a core import or export that is not a
// function: a table, memory or global (functions are compared through
// wazero's compiled definitions). Type is the table's element type or the
// global's value type, as its encoding.
type ExternType struct {
	Kind    Kind
	Type    string
	Min     uint64
	Max     uint64
	HasMax  bool
	Shared  bool
	Is64    bool
	Mutable bool
}

// ImportType is an import with its type (Kind only for functions and tags).
type ImportType struct {
	Module, Name string
	ExternType
}

// ExternTypes lists the module's imports with their types and the types
// of its exports by name. What the engine does not compare (functions,
// tags) carries only its kind.
func ExternTypes(module []byte) ([]ImportType, map[string]ExternType, error) {
	secs, err := sections(module)
	if err != nil {
		return nil, nil, err
	}
	var imps []ImportType
	spaces := map[Kind][]ExternType{}
	var exportSec *section
	for i, sec := range secs {
		r := &reader{b: module[:sec.end], off: sec.body}
		switch sec.id {
		case importSectionID:
			n, err := r.u32()
			if err != nil {
				return nil, nil, err
			}
			for range n {
				var imp ImportType
				if imp.Module, err = r.name(); err != nil {
					return nil, nil, err
				}
				if imp.Name, err = r.name(); err != nil {
					return nil, nil, err
				}
				if imp.ExternType, err = r.externType(); err != nil {
					return nil, nil, fmt.Errorf("core module: import %q %q: %w", imp.Module, imp.Name, err)
				}
				imps = append(imps, imp)
				spaces[imp.Kind] = append(spaces[imp.Kind], imp.ExternType)
			}
		case tableSectionID, memorySectionID, globalSectionID:
			n, err := r.u32()
			if err != nil {
				return nil, nil, err
			}
			kind := map[byte]Kind{tableSectionID: KindTable, memorySectionID: KindMemory, globalSectionID: KindGlobal}[sec.id]
			for range n {
				t, err := r.definedType(kind)
				if err == nil && kind == KindGlobal {
					err = r.skipConstExpr()
				}
				if err != nil {
					return nil, nil, fmt.Errorf("core module: %s %d: %w", kind, len(spaces[kind]), err)
				}
				spaces[kind] = append(spaces[kind], t)
			}
		case exportSectionID:
			exportSec = &secs[i]
		}
	}
	exps := map[string]ExternType{}
	if exportSec == nil {
		return imps, exps, nil
	}
	r := &reader{b: module[:exportSec.end], off: exportSec.body}
	n, err := r.u32()
	if err != nil {
		return nil, nil, err
	}
	for range n {
		name, err := r.name()
		if err != nil {
			return nil, nil, err
		}
		k, err := r.byte()
		if err != nil {
			return nil, nil, err
		}
		idx, err := r.u32()
		if err != nil {
			return nil, nil, err
		}
		t := ExternType{Kind: Kind(k)}
		if t.Kind == KindTable || t.Kind == KindMemory || t.Kind == KindGlobal {
			sp := spaces[t.Kind]
			if int(idx) >= len(sp) {
				return nil, nil, fmt.Errorf("core module: export %q: %s index %d out of range", name, t.Kind, idx)
			}
			t = sp[idx]
		}
		exps[name] = t
	}
	return imps, exps, nil
}

// externType reads an import descriptor.
func (r *reader) externType() (ExternType, error) {
	k, err := r.byte()
	if err != nil {
		return ExternType{}, err
	}
	kind := Kind(k)
	switch kind {
	case KindTable, KindMemory, KindGlobal:
		return r.definedType(kind)
	}
	return ExternType{Kind: kind}, r.skipDesc(kind)
}

// definedType reads a table, memory or global type.
func (r *reader) definedType(kind Kind) (ExternType, error) {
	t := ExternType{Kind: kind}
	switch kind {
	case KindTable:
		start := r.off
		if r.off < len(r.b) && r.b[r.off] == 0x40 {
			return t, fmt.Errorf("tables with initialisers are not supported here")
		}
		if err := r.skipRefType(); err != nil {
			return t, err
		}
		t.Type = string(r.b[start:r.off])
		return t, r.limits(&t)
	case KindMemory:
		return t, r.limits(&t)
	case KindGlobal:
		start := r.off
		if err := r.skipValType(); err != nil {
			return t, err
		}
		t.Type = string(r.b[start:r.off])
		mut, err := r.byte()
		if err != nil {
			return t, err
		}
		t.Mutable = mut&1 != 0
		return t, nil
	}
	return t, fmt.Errorf("unknown kind %s", kind)
}

func (r *reader) limits(t *ExternType) error {
	flags, err := r.byte()
	if err != nil {
		return err
	}
	if flags > 0x07 {
		return fmt.Errorf("unknown limits flags %#x", flags)
	}
	t.HasMax, t.Shared, t.Is64 = flags&1 != 0, flags&2 != 0, flags&4 != 0
	if t.Min, err = r.uleb(64); err != nil {
		return err
	}
	if t.HasMax {
		t.Max, err = r.uleb(64)
	}
	return err
}

// Matches reports whether an item of type got may satisfy an import of
// type want (core subtyping: tables and memories may be larger and bounded
// tighter, globals must match exactly), and says why not.
func (want ExternType) Matches(got ExternType) error {
	if got.Kind != want.Kind {
		return fmt.Errorf("expected %s, found %s", want.Kind, got.Kind)
	}
	switch want.Kind {
	case KindGlobal:
		if got.Type != want.Type || got.Mutable != want.Mutable {
			return fmt.Errorf("expected global type %s, found %s", want.globalString(), got.globalString())
		}
	case KindTable:
		if got.Type != want.Type {
			return fmt.Errorf("expected table element type %s, found %s", valTypeName(want.Type), valTypeName(got.Type))
		}
		if !want.limitsHold(got) {
			return fmt.Errorf("mismatch in table limits: %s does not fit %s", got.limitsString(), want.limitsString())
		}
	case KindMemory:
		if got.Shared != want.Shared {
			return fmt.Errorf("mismatch in the shared flag for memories")
		}
		if got.Is64 != want.Is64 {
			return fmt.Errorf("mismatch in the index type of memories")
		}
		if !want.limitsHold(got) {
			return fmt.Errorf("mismatch in memory limits: %s does not fit %s", got.limitsString(), want.limitsString())
		}
	}
	return nil
}

func (want ExternType) limitsHold(got ExternType) bool {
	if got.Min < want.Min {
		return false
	}
	return !want.HasMax || (got.HasMax && got.Max <= want.Max)
}

func (t ExternType) limitsString() string {
	if t.HasMax {
		return fmt.Sprintf("[%d, %d]", t.Min, t.Max)
	}
	return fmt.Sprintf("[%d, unbounded]", t.Min)
}

func (t ExternType) globalString() string {
	s := valTypeName(t.Type)
	if t.Mutable {
		return "(mut " + s + ")"
	}
	return s
}

func valTypeName(enc string) string {
	names := map[string]string{"\x7f": "i32", "\x7e": "i64", "\x7d": "f32", "\x7c": "f64", "\x7b": "v128", "\x70": "funcref", "\x6f": "externref"}
	if n, ok := names[enc]; ok {
		return n
	}
	return fmt.Sprintf("type %x", strings.TrimSpace(enc))
}

// skipConstExpr skips a constant expression up to its end opcode. It knows
// the instructions core 2.0 and extended-const allow; any other is an
// error, which callers treat as a type they cannot compare.
func (r *reader) skipConstExpr() error {
	for {
		op, err := r.byte()
		if err != nil {
			return err
		}
		switch op {
		case 0x0b: // end
			return nil
		case 0x41: // i32.const
			_, err = r.sleb(32)
		case 0x42: // i64.const
			_, err = r.sleb(64)
		case 0x43:
			err = r.skip(4)
		case 0x44:
			err = r.skip(8)
		case 0x23, 0xd2: // global.get, ref.func
			_, err = r.u32()
		case 0xd0: // ref.null
			err = r.skipHeapType()
		case 0x6a, 0x6b, 0x6c, 0x7c, 0x7d, 0x7e: // extended-const arithmetic
		case 0xfd: // v128.const
			var sub uint32
			if sub, err = r.u32(); err == nil {
				if sub != 12 {
					return fmt.Errorf("instruction 0xfd %d in a constant expression", sub)
				}
				err = r.skip(16)
			}
		default:
			return fmt.Errorf("instruction %#x in a constant expression", op)
		}
		if err != nil {
			return err
		}
	}
}

func (r *reader) skip(n int) error {
	if n > len(r.b)-r.off {
		return errEOF
	}
	r.off += n
	return nil
}
