package binary

import (
	"testing"
	"unsafe"

	"github.com/tetratelabs/wazero/api"
)

// (module (memory 1) (func (result i32) i32.const 42) (data (i32.const 0) "hello"))
var sharedTestModule = []byte{
	0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
	0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7f, // type
	0x03, 0x02, 0x01, 0x00, // function
	0x05, 0x03, 0x01, 0x00, 0x01, // memory
	0x0a, 0x06, 0x01, 0x04, 0x00, 0x41, 0x2a, 0x0b, // code
	0x0b, 0x0b, 0x01, 0x00, 0x41, 0x00, 0x0b, 0x05, 'h', 'e', 'l', 'l', 'o', // data
}

// mur patch: decoding a binary it may share, a module's function bodies
// and data segments are the binary's own bytes (capped at their end);
// otherwise they are copies.
func TestDecodeModuleSharesTheBinaryOnlyWhenAsked(t *testing.T) {
	within := func(b []byte) bool {
		lo := uintptr(unsafe.Pointer(&sharedTestModule[0]))
		p := uintptr(unsafe.Pointer(&b[0]))
		return p >= lo && p+uintptr(len(b)) <= lo+uintptr(len(sharedTestModule))
	}
	for _, share := range []bool{false, true} {
		m, err := DecodeModule(sharedTestModule, api.CoreFeaturesV2, 1, false, false, false, share)
		if err != nil {
			t.Fatal(err)
		}
		body, init := m.CodeSection[0].Body, m.DataSection[0].Init
		if string(body) != "\x41\x2a\x0b" || string(init) != "hello" {
			t.Fatalf("share=%v: decoded body %x, data %q", share, body, init)
		}
		if within(body) != share || within(init) != share {
			t.Errorf("share=%v: body within the binary %v, data %v", share, within(body), within(init))
		}
		if cap(body) != len(body) || cap(init) != len(init) {
			t.Errorf("share=%v: body capacity %d of %d, data %d of %d", share, cap(body), len(body), cap(init), len(init))
		}
	}
}

// A body or segment claiming more bytes than are left is refused alike
// (the module cut anywhere but between its sections).
func TestDecodeModuleSharedRefusesATruncatedBinary(t *testing.T) {
	between := map[int]bool{15: true, 19: true, 24: true, 32: true}
	for n := len(sharedTestModule) - 1; n > 8; n-- {
		if between[n] {
			continue
		}
		for _, share := range []bool{false, true} {
			if _, err := DecodeModule(sharedTestModule[:n], api.CoreFeaturesV2, 1, false, false, false, share); err == nil {
				t.Errorf("share=%v: the module cut at %d bytes decoded", share, n)
			}
		}
	}
}
