package coremod

import (
	"bytes"
	"errors"
	"testing"
)

// module assembles a core module from raw sections (id, body).
func module(sections ...[]byte) []byte {
	out := append([]byte{}, magic...)
	for _, s := range sections {
		out = append(out, s[0])
		out = append(out, uleb(uint64(len(s)-1))...)
		out = append(out, s[1:]...)
	}
	return out
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

var (
	typeSec   = []byte{1, 1, 0x60, 0, 0} // one type: func() -> ()
	importSec = cat([]byte{2, 3},
		name("env"), name("f"), []byte{0x00, 0},
		name("env"), name("mem"), []byte{0x02, 0x01, 1, 2},
		name("other"), name("t"), []byte{0x01, 0x70, 0x00, 4})
	tableSec = []byte{4, 2, 0x70, 0x00, 3, 0x6f, 0x01, 1, 100}
)

func TestImports(t *testing.T) {
	imps, err := Imports(module(typeSec, importSec))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		mod, name string
		kind      Kind
	}{{"env", "f", KindFunc}, {"env", "mem", KindMemory}, {"other", "t", KindTable}}
	if len(imps) != len(want) {
		t.Fatalf("got %d imports", len(imps))
	}
	for i, w := range want {
		if imps[i].Module != w.mod || imps[i].Name != w.name || imps[i].Kind != w.kind {
			t.Errorf("import %d: got %+v, want %+v", i, imps[i], w)
		}
	}
}

func TestRewriteImports(t *testing.T) {
	in := module(typeSec, importSec, tableSec)
	out, err := RewriteImports(in, func(i int, imp Import) (string, string) {
		return "$" + string(rune('0'+i)), imp.Name + "!"
	})
	if err != nil {
		t.Fatal(err)
	}
	imps, err := Imports(out)
	if err != nil {
		t.Fatal(err)
	}
	for i, imp := range imps {
		if imp.Module != "$"+string(rune('0'+i)) || imp.Name[len(imp.Name)-1] != '!' {
			t.Errorf("import %d not renamed: %+v", i, imp)
		}
	}
	if !bytes.HasSuffix(out, tableSec[2:]) {
		t.Error("sections after the import section changed")
	}
	if same, _ := RewriteImports(module(typeSec), nil); !bytes.Equal(same, module(typeSec)) {
		t.Error("a module without imports must come back unchanged")
	}
}

func TestTables(t *testing.T) {
	code := func(body ...byte) []byte {
		fn := append([]byte{0}, body...) // no locals
		return cat([]byte{10, 1}, uleb(uint64(len(fn))), fn)
	}
	funcSec := []byte{3, 1, 0}
	for _, tc := range []struct {
		name  string
		in    []byte
		min   uint64
		grows bool
	}{
		{"no tables", module(typeSec, funcSec, code(0x0b)), 0, false},
		{"largest initial size", module(typeSec, funcSec, tableSec, code(0x0b)), 3, false},
		// (table.grow 0 (ref.null func) (i32.const 1)) (drop)
		{"table.grow", module(typeSec, funcSec, tableSec, code(0xd0, 0x70, 0x41, 1, 0xfc, 15, 0, 0x1a, 0x0b)), 3, true},
		// table.size is 0xfc 16: another sub-opcode of the same prefix.
		{"table.size only", module(typeSec, funcSec, tableSec, code(0xfc, 16, 0, 0x1a, 0x0b)), 3, false},
		// i32.const 15 must not read as the sub-opcode of table.grow.
		{"immediate 15", module(typeSec, funcSec, code(0x41, 15, 0x1a, 0x0b)), 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			minElems, grows, err := Tables(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if minElems != tc.min || grows != tc.grows {
				t.Fatalf("Tables = %d, %v; want %d, %v", minElems, grows, tc.min, tc.grows)
			}
		})
	}
}

func TestCapTables(t *testing.T) {
	tests := []struct {
		name    string
		cap     uint32
		want    []byte // table section body
		tooBig  bool
		wantErr bool
	}{
		{name: "caps unbounded and larger max", cap: 10, want: []byte{2, 0x70, 1, 3, 10, 0x6f, 1, 1, 10}},
		{name: "keeps smaller max", cap: 1000, want: []byte{2, 0x70, 1, 3, 1000&0x7f | 0x80, 1000 >> 7, 0x6f, 1, 1, 100}},
		{name: "min above cap", cap: 2, tooBig: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := CapTables(module(typeSec, tableSec), tt.cap)
			var tl *TableTooLargeError
			if tt.tooBig {
				if !errors.As(err, &tl) || tl.Min != 3 {
					t.Fatalf("want TableTooLargeError, got %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if want := module(typeSec, append([]byte{4}, tt.want...)); !bytes.Equal(out, want) {
				t.Fatalf("got  %x\nwant %x", out, want)
			}
		})
	}
}

func TestMalformed(t *testing.T) {
	for _, b := range [][]byte{
		nil,
		[]byte("\x00asm\x02\x00\x00\x00"),
		module([]byte{2, 5, 'x'}),
		append(append([]byte{}, magic...), 2, 0xff, 0xff, 0xff, 0xff, 0x0f),
		module(cat([]byte{2, 1}, name("env"), name("f"), []byte{0x09})),
	} {
		if _, err := Imports(b); err == nil {
			t.Errorf("Imports(%x) succeeded", b)
		}
	}
}

func FuzzCoreModule(f *testing.F) {
	f.Add(module(typeSec, importSec, tableSec))
	f.Add(module(typeSec))
	f.Fuzz(func(t *testing.T, b []byte) {
		imps, err := Imports(b)
		if err == nil {
			out, err := RewriteImports(b, func(i int, imp Import) (string, string) { return imp.Name, imp.Module })
			if err != nil {
				t.Fatalf("rewrite failed after Imports succeeded: %v", err)
			}
			again, err := Imports(out)
			if err != nil || len(again) != len(imps) {
				t.Fatalf("rewritten module does not parse back: %v", err)
			}
		}
		_, _ = CapTables(b, 5)
		_, _ = MinMemoryPages(b)
		_, _ = Exports(b)
		_, _, _ = ExternTypes(b)
		_, _, _ = AddInterruptChecks(b, "m", "y")
		_, _, _, _ = MergeDataSegments(b)
	})
}

func TestMinMemoryPages(t *testing.T) {
	memSec := []byte{5, 2, 0x00, 3, 0x01, 2, 9}
	got, err := MinMemoryPages(module(typeSec, memSec))
	if err != nil || got != 5 {
		t.Fatalf("got %d, %v; want 5", got, err)
	}
	if got, err := MinMemoryPages(module(typeSec)); err != nil || got != 0 {
		t.Fatalf("no memories: got %d, %v", got, err)
	}
}

func TestAddInterruptChecks(t *testing.T) {
	// f0: (loop (br 0)); f1: (call 1) — calls itself, index shifts to 2.
	f0 := []byte{0, 0x03, 0x40, 0x0c, 0x00, 0x0b, 0x0b}
	f1 := []byte{0, 0x10, 0x01, 0x0b}
	code := cat([]byte{10}, uleb(uint64(1+1+len(f0)+1+len(f1))), []byte{2}, uleb(uint64(len(f0))), f0, uleb(uint64(len(f1))), f1)
	exportSec := cat([]byte{7, 1}, name("f1"), []byte{0x00, 0x01})
	// One imported function (index 0) keeps its index; the yield import is 1.
	imports := cat([]byte{2, 1}, name("env"), name("f"), []byte{0x00, 0})
	in := cat(module(typeSec, imports, []byte{3, 2, 0, 0}, exportSec), code)
	out, ok, err := AddInterruptChecks(in, "$host", "yield")
	if err != nil || !ok {
		t.Fatalf("ok=%v err=%v", ok, err)
	}
	secs, err := sections(out)
	if err != nil {
		t.Fatal(err)
	}
	var ids []byte
	for _, s := range secs {
		ids = append(ids, s.id)
	}
	if !bytes.Equal(ids, []byte{1, 2, 3, 6, 7, 10}) {
		t.Fatalf("section ids %v", ids)
	}
	imps, err := Imports(out)
	if err != nil || len(imps) != 2 || imps[1].Module != "$host" || imps[1].Name != "yield" {
		t.Fatalf("imports %+v, %v", imps, err)
	}
	// f0's loop starts with the fuel check (global 0, yield is function 1).
	check := []byte{0x23, 0x00, 0x41, 0x00, 0x4c, 0x04, 0x40, 0x10, 0x01, 0x0b, 0x23, 0x00, 0x41, 0x01, 0x6b, 0x24, 0x00}
	wantF0 := cat([]byte{0, 0x03, 0x40}, check, []byte{0x0c, 0x00, 0x0b, 0x0b})
	if !bytes.Contains(out, wantF0) {
		t.Fatalf("loop not instrumented: %x", out)
	}
	// f1 now calls function 2 (itself), and its export points at 2.
	if !bytes.Contains(out, []byte{0, 0x10, 0x02, 0x0b}) || !bytes.Contains(out, cat(name("f1"), []byte{0x00, 0x02})) {
		t.Fatalf("function indices not shifted: %x", out)
	}
	if !bytes.Contains(out, []byte(FuelGlobal)) {
		t.Fatal("fuel not exported")
	}

	noLoop := cat(module(typeSec, []byte{3, 1, 0}), []byte{10, byte(2 + len(f1)), 1, byte(len(f1))}, f1)
	same, ok, err := AddInterruptChecks(noLoop, "$host", "yield")
	if err != nil || ok || !bytes.Equal(same, noLoop) {
		t.Fatalf("a module without loops must come back unchanged: ok=%v err=%v", ok, err)
	}
}

func TestMergeDataSegments(t *testing.T) {
	seg := func(off int32, data ...byte) []byte {
		return cat([]byte{0x00, 0x41}, sleb32(off), []byte{0x0b}, uleb(uint64(len(data))), data)
	}
	memSec := []byte{5, 1, 0x00, 1}
	dataSec := func(segs ...[]byte) []byte {
		body := cat(append([][]byte{uleb(uint64(len(segs)))}, segs...)...)
		return cat([]byte{11}, uleb(uint64(len(body))), body)
	}
	tests := []struct {
		name string
		in   [][]byte
		want [][]byte // nil: unchanged
	}{
		{
			name: "adjacent and small gaps merge, a far one stays",
			in:   [][]byte{seg(0, 1, 2), seg(2, 3), seg(10, 4), seg(200, 9)},
			want: [][]byte{seg(0, 1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 4), seg(200, 9)},
		},
		{
			name: "a gap an earlier segment wrote is not zeroed",
			in:   [][]byte{seg(2, 7), seg(0, 1, 2), seg(4, 3)},
		},
		{
			name: "overlapping segments keep their order",
			in:   [][]byte{seg(0, 1, 2, 3), seg(1, 9)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := append(module(memSec), dataSec(tt.in...)...)
			out, before, after, err := MergeDataSegments(in)
			if err != nil || before != len(tt.in) {
				t.Fatalf("before %d, err %v", before, err)
			}
			want := in
			if tt.want != nil {
				want = append(module(memSec), dataSec(tt.want...)...)
			}
			if !bytes.Equal(out, want) || (tt.want != nil && after != len(tt.want)) {
				t.Fatalf("after %d\ngot  %x\nwant %x", after, out, want)
			}
		})
	}

	// An imported memory or a data count section: never touched.
	importsMem := append(module(cat([]byte{2, 1}, name("env"), name("m"), []byte{0x02, 0x00, 1})), dataSec(seg(0, 1), seg(1, 2))...)
	withCount := append(module(memSec, []byte{12, 2}), dataSec(seg(0, 1), seg(1, 2))...)
	for _, m := range [][]byte{importsMem, withCount} {
		got, _, _, err := MergeDataSegments(m)
		if err != nil || !bytes.Equal(got, m) {
			t.Fatalf("module changed (%v): %x", err, m)
		}
	}
}
