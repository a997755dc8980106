package binary

import (
	"errors"
	"strings"
	"testing"
)

// TestDecodeErrors checks that each class of malformed input yields a
// *DecodeError of the right class at the right offset.
func TestDecodeErrors(t *testing.T) {
	canonEntry := func(entry ...byte) []byte { return component(section(8, vecOf(entry))) }
	typeEntry := func(entry []byte) []byte { return component(section(7, vecOf(entry))) }
	tests := []struct {
		name   string
		in     []byte
		class  error
		offset int // -1: not checked
	}{
		{"empty input", nil, ErrBadPreamble, 0},
		{"short preamble", b(0x00, 0x61, 0x73), ErrBadPreamble, 0},
		{"bad magic", b(0x00, 0x61, 0x73, 0x6e, 0x0d, 0x00, 0x01, 0x00), ErrBadPreamble, 0},
		{"core module", coreModuleBytes, ErrBadPreamble, 6},
		{"old version", b(0x00, 0x61, 0x73, 0x6d, 0x0c, 0x00, 0x01, 0x00), ErrBadPreamble, 4},
		{"unknown layer", b(0x00, 0x61, 0x73, 0x6d, 0x0d, 0x00, 0x02, 0x00), ErrBadPreamble, 6},
		{"truncated section header", cat(preamble, b(0x07)), ErrUnexpectedEOF, 9},
		{"section larger than input", cat(preamble, b(0x07, 0x05, 0x00)), ErrBadLength, 10},
		{"section bytes left over", component(section(7, vecOf(), b(0x00))), ErrSectionSize, 11},
		{"entry overruns section", cat(preamble, b(0x07, 0x02, 0x01, 0x70), b(0x7f)), ErrUnexpectedEOF, 12},
		{"unknown section id", component(section(13)), ErrBadOpcode, 8},
		{"u32 too large", component(section(9, b(0xff, 0xff, 0xff, 0xff, 0x1f), vecOf(), leb(0))), ErrBadLEB128, 10},
		{"u32 too long", component(section(9, b(0x80, 0x80, 0x80, 0x80, 0x80, 0x00), vecOf(), leb(0))), ErrBadLEB128, 10},
		{"u32 truncated", component(section(9, b(0x80, 0x80))), ErrUnexpectedEOF, 12},
		{"huge vector count", component(section(7, b(0xff, 0xff, 0xff, 0xff, 0x0f))), ErrBadLength, 10},
		{"name too long", component(section(10, vecOf(cat(b(0x00), leb(100), []byte("abc"))))), ErrBadLength, 12},
		{"name not utf-8", component(section(10, vecOf(cat(b(0x00), leb(2), b(0xc3, 0x28), b(0x01), leb(0))))), ErrBadUTF8, 13},
		{"unknown name kind", component(section(10, vecOf(cat(b(0x03), str("x"), b(0x01), leb(0))))), ErrBadOpcode, 11},
		{"unknown name attribute", component(section(10, vecOf(cat(b(0x02), str("x"), vecOf(cat(b(0x07), str("y"))), b(0x01), leb(0))))), ErrBadOpcode, 15},
		{"duplicate name attribute", component(section(10, vecOf(cat(b(0x02), str("x"), vecOf(cat(b(0x00), str("")), cat(b(0x00), str("y"))), b(0x01), leb(0))))), ErrInvalid, 17},
		{"core module section garbage", component(section(1, b(1, 2, 3))), ErrBadPreamble, 10},
		{"core module section holds component", component(section(1, preamble)), ErrBadPreamble, 10},
		{"unknown core instance kind", component(section(2, vecOf(b(0x02)))), ErrBadOpcode, 11},
		{"core instantiate arg sort", component(section(2, vecOf(cat(b(0x00), leb(0), vecOf(cat(str("a"), b(0x11), leb(0))))))), ErrBadOpcode, 16},
		{"unknown core sort", component(section(2, vecOf(cat(b(0x01), vecOf(cat(str("a"), b(0x05), leb(0))))))), ErrBadOpcode, 15},
		{"unknown instance kind", component(section(5, vecOf(b(0x07)))), ErrBadOpcode, 11},
		{"named results", typeEntry(b(0x40, 0x00, 0x01, 0x01, 0x01, 'r', 0x7f)), ErrBadOpcode, 14},
		{"module type in module type", component(section(3, vecOf(cat(b(0x50), vecOf(b(0x01, 0x50, 0x00)))))), ErrBadOpcode, 14},
		{"fixed-length list of length 0", typeEntry(b(0x67, 0x7f, 0x00)), ErrInvalid, 13},
		{"unallocated canon opcode", component(section(8, vecOf(b(0x07)))), ErrBadOpcode, 11},
		{"bad flag of a built-in", component(section(8, vecOf(b(0x0c, 0x02)))), ErrInvalid, 12},
		{"unknown sort", component(section(5, vecOf(cat(b(0x00), leb(0), vecOf(cat(str("a"), b(0x06), leb(0))))))), ErrBadOpcode, 16},
		{"core func as instantiate arg", component(section(5, vecOf(cat(b(0x00), leb(0), vecOf(cat(str("a"), b(0x00, 0x00), leb(0))))))), ErrInvalid, 16},
		{"unknown alias target", component(section(6, vecOf(b(0x01, 0x03, 0x00)))), ErrBadOpcode, 12},
		{"core func from component instance", component(section(6, vecOf(cat(b(0x00, 0x00, 0x00), leb(0), str("f"))))), ErrInvalid, 11},
		{"func from core instance", component(section(6, vecOf(cat(b(0x01, 0x01), leb(0), str("f"))))), ErrInvalid, 11},
		{"outer alias of func", component(section(6, vecOf(cat(b(0x01, 0x02), leb(0), leb(0))))), ErrInvalid, 11},
		{"unknown type opcode", typeEntry(b(0x6c)), ErrBadOpcode, 11},
		{"negative value type", typeEntry(b(0x70, 0x50)), ErrBadOpcode, 12},
		{"empty record", typeEntry(cat(b(0x72), vecOf())), ErrInvalid, 11},
		{"empty variant", typeEntry(cat(b(0x71), vecOf())), ErrInvalid, 11},
		{"empty tuple", typeEntry(cat(b(0x6f), vecOf())), ErrInvalid, 11},
		{"empty enum", typeEntry(cat(b(0x6d), vecOf())), ErrInvalid, 11},
		{"33 flags", typeEntry(cat(b(0x6e), leb(33), cat(func() [][]byte {
			var fs [][]byte
			for range 33 {
				fs = append(fs, str("f"))
			}
			return fs
		}()...))), ErrInvalid, 11},
		{"variant refines", typeEntry(cat(b(0x71), vecOf(cat(str("a"), b(0x00, 0x01, 0x00))))), ErrBadOpcode, 16},
		{"bad option flag", typeEntry(b(0x6a, 0x02)), ErrBadOpcode, 12},
		{"bad result kind", typeEntry(cat(b(0x40), vecOf(), b(0x02))), ErrBadOpcode, 13},
		{"resource rep i64", typeEntry(b(0x3f, 0x7e, 0x00)), ErrInvalid, 12},
		{"bad dtor flag", typeEntry(b(0x3f, 0x7f, 0x02)), ErrBadOpcode, 13},
		{"unknown declarator", typeEntry(cat(b(0x42), vecOf(b(0x05)))), ErrBadOpcode, 13},
		{"import in instance type", typeEntry(cat(b(0x42), vecOf(cat(b(0x03, 0x00), str("f"), b(0x01), leb(0))))), ErrBadOpcode, 13},
		{"core export alias in type", typeEntry(cat(b(0x42), vecOf(cat(b(0x02, 0x00, 0x00, 0x01), leb(0), str("f"))))), ErrInvalid, 14},
		{"func export alias in type", typeEntry(cat(b(0x42), vecOf(cat(b(0x02, 0x01, 0x00), leb(0), str("f"))))), ErrInvalid, 14},
		{"unknown extern type", typeEntry(cat(b(0x42), vecOf(cat(b(0x04, 0x00), str("f"), b(0x06), leb(0))))), ErrBadOpcode, 17},
		{"extern core func", typeEntry(cat(b(0x42), vecOf(cat(b(0x04, 0x00), str("f"), b(0x00, 0x00), leb(0))))), ErrBadOpcode, 18},
		{"unknown type bound", typeEntry(cat(b(0x42), vecOf(cat(b(0x04, 0x00), str("f"), b(0x03, 0x02))))), ErrBadOpcode, 18},
		{"unknown core type", component(section(3, vecOf(b(0x61)))), ErrBadOpcode, 11},
		{"0x00 not followed by 0x50", component(section(3, vecOf(b(0x00, 0x60)))), ErrBadOpcode, 11},
		{"unknown core value type", component(section(3, vecOf(cat(b(0x60), vecOf(b(0x40)), vecOf())))), ErrBadOpcode, 13},
		{"unknown module declarator", component(section(3, vecOf(cat(b(0x50), vecOf(b(0x04)))))), ErrBadOpcode, 13},
		{"core alias sort", component(section(3, vecOf(cat(b(0x50), vecOf(cat(b(0x02, 0x00, 0x01), leb(0), leb(0))))))), ErrBadOpcode, 14},
		{"core alias target", component(section(3, vecOf(cat(b(0x50), vecOf(cat(b(0x02, 0x10, 0x00), leb(0), leb(0))))))), ErrBadOpcode, 15},
		{"unknown core extern", component(section(3, vecOf(cat(b(0x50), vecOf(cat(b(0x03), str("x"), b(0x05))))))), ErrBadOpcode, 16},
		{"table of i32", component(section(3, vecOf(cat(b(0x50), vecOf(cat(b(0x03), str("x"), b(0x01, 0x7f, 0x00), leb(0))))))), ErrInvalid, 17},
		{"table flags", component(section(3, vecOf(cat(b(0x50), vecOf(cat(b(0x03), str("x"), b(0x01, 0x70, 0x02), leb(0))))))), ErrBadOpcode, 18},
		{"memory flags", component(section(3, vecOf(cat(b(0x50), vecOf(cat(b(0x03), str("x"), b(0x02, 0x10), leb(0))))))), ErrBadOpcode, 17},
		{"global mutability", component(section(3, vecOf(cat(b(0x50), vecOf(cat(b(0x03), str("x"), b(0x03, 0x7f, 0x04))))))), ErrBadOpcode, 18},
		{"unknown canon function", canonEntry(0x50), ErrBadOpcode, 11},
		{"canon lift sort", canonEntry(0x00, 0x01, 0x00, 0x00, 0x00), ErrBadOpcode, 12},
		{"unknown canon option", canonEntry(0x01, 0x00, 0x00, 0x01, 0x0a), ErrBadOpcode, 15},
		{"duplicate memory option", canonEntry(0x01, 0x00, 0x00, 0x02, 0x03, 0x00, 0x03, 0x00), ErrInvalid, 17},
		{"duplicate string encoding", canonEntry(0x01, 0x00, 0x00, 0x02, 0x00, 0x01), ErrInvalid, 16},
		{"unknown export type flag", component(section(11, vecOf(cat(b(0x00), str("f"), b(0x01), leb(0), b(0x02))))), ErrBadOpcode, 16},
		{"export of core func", component(section(11, vecOf(cat(b(0x00), str("f"), b(0x00, 0x00), leb(0), b(0x00))))), ErrInvalid, 14},
		{"components nested too deep", nest(maxDepth + 1), ErrTooDeep, -1},
		{"types nested too deep", component(section(7, vecOf(nestType(maxDepth+1)))), ErrTooDeep, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeComponent(tt.in)
			var de *DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("got %v (%T), want *DecodeError", err, err)
			}
			if !errors.Is(err, tt.class) {
				t.Errorf("got %v, want class %q", err, tt.class)
			}
			if tt.offset >= 0 && de.Offset != tt.offset {
				t.Errorf("got offset %d, want %d (%v)", de.Offset, tt.offset, err)
			}
		})
	}
}

// nest returns a component nested depth levels deep.
func nest(depth int) []byte {
	c := component()
	for range depth {
		c = component(section(4, c))
	}
	return c
}

// nestType returns an instance type nesting instance types depth levels.
func nestType(depth int) []byte {
	t := cat(b(0x42), vecOf())
	for range depth - 1 {
		t = cat(b(0x42), vecOf(cat(b(0x01), t)))
	}
	return t
}

func TestDecodeErrorMessage(t *testing.T) {
	in := component(section(7, vecOf()), section(8, vecOf(
		b(0x02, 0x00),
		b(0x01, 0x00, 0x00, 0x01, 0x0a),
	)))
	_, err := DecodeComponent(in)
	const want = "component binary: byte offset 0x14: canon section entry 1: unknown canonical option 0x0a"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}

	nested := component(section(4, in))
	_, err = DecodeComponent(nested)
	if err == nil || !strings.Contains(err.Error(), "nested component: canon section entry 1") {
		t.Errorf("nested: got %v", err)
	}
}

// TestNotSupported checks that well-formed uses of unimplemented features
// yield a *NotSupportedError naming the feature.
func TestNotSupported(t *testing.T) {
	canonEntry := func(entry ...byte) []byte { return component(section(8, vecOf(entry))) }
	typeEntry := func(entry ...byte) []byte { return component(section(7, vecOf(entry))) }
	moduleDecl := func(decl []byte) []byte { return component(section(3, vecOf(cat(b(0x50), vecOf(decl))))) }
	tests := []struct {
		name    string
		in      []byte
		feature string
		offset  int
	}{
		{"value section", component(section(12, vecOf())), "value section", 10},
		{"start with arguments", component(section(9, leb(0), vecOf(leb(0)), leb(0))), "value arguments", 11},
		{"start with results", component(section(9, leb(0), vecOf(), leb(1))), "value results", 12},
		{"value sort", component(section(11, vecOf(cat(b(0x00), str("v"), b(0x02), leb(0), b(0x00))))), "value sort", 14},
		{"value import", component(section(10, vecOf(cat(b(0x00), str("v"), b(0x02, 0x01, 0x7f))))), "value import", 14},
		{"async func type", typeEntry(0x43, 0x00, 0x01, 0x00), "async function", 11},
		{"stream", typeEntry(0x66, 0x00), "stream", 11},
		{"future", typeEntry(0x65, 0x00), "future", 11},
		{"error-context type", typeEntry(0x64), "error-context", 11},
		{"error-context value type", typeEntry(0x70, 0x64), "error-context", 12},
		{"task.return", canonEntry(0x09, 0x01, 0x00, 0x00), "async built-ins", 11},
		{"context.get", canonEntry(0x0a, 0x7f, 0x00), "async built-ins", 11},
		{"backpressure.inc", canonEntry(0x24), "async built-ins", 11},
		{"error-context.new", canonEntry(0x1c, 0x00), "error-context", 11},
		{"thread.index", canonEntry(0x26), "thread", 11},
		{"thread.spawn-ref", canonEntry(0x40, 0x00, 0x00), "thread", 11},
		{"async option", canonEntry(0x00, 0x00, 0x00, 0x01, 0x06, 0x00), "async canonical options", 15},
		{"callback option", canonEntry(0x00, 0x00, 0x00, 0x01, 0x07, 0x00, 0x00), "async canonical options", 15},
		{"gc option", canonEntry(0x00, 0x00, 0x00, 0x01, 0x09, 0x00), "GC canonical options", 15},
		{"core-type option", canonEntry(0x00, 0x00, 0x00, 0x01, 0x08, 0x00, 0x00), "GC canonical options", 15},
		{"gc struct type", component(section(3, vecOf(b(0x5f, 0x00)))), "GC core types", 11},
		{"gc rec group", component(section(3, vecOf(b(0x4e, 0x00)))), "GC core types", 11},
		{"gc non-final sub", component(section(3, vecOf(b(0x00, 0x50, 0x00, 0x60, 0x00, 0x00)))), "GC core types", 11},
		{"gc ref type", component(section(3, vecOf(b(0x60, 0x01, 0x64, 0x70, 0x00)))), "GC reference types", 13},
		{"custom page size", moduleDecl(cat(b(0x03), str("m"), b(0x02, 0x08, 0x01, 0x10))), "page sizes", 17},
		{"shared global", moduleDecl(cat(b(0x03), str("g"), b(0x03, 0x7f, 0x02))), "shared globals", 18},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeComponent(tt.in)
			var ns *NotSupportedError
			if !errors.As(err, &ns) {
				t.Fatalf("got %v (%T), want *NotSupportedError", err, err)
			}
			if !strings.Contains(ns.Feature, tt.feature) {
				t.Errorf("feature %q does not mention %q", ns.Feature, tt.feature)
			}
			if ns.Offset != tt.offset {
				t.Errorf("got offset %d, want %d", ns.Offset, tt.offset)
			}
			if want := "not supported: " + ns.Feature; !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "(at byte offset ") {
				t.Errorf("message %q", err.Error())
			}
		})
	}
}
