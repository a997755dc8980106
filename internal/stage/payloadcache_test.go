package stage

import (
	"context"
	"path/filepath"
	"runtime/debug"
	"testing"

	"github.com/mur-go/mur/engine/component"
)

// A cached payload is handed out where it is in its entry's file, by the
// engine's memo: every staging of a process (a cluster worker stages one
// per session) gets the same mapping, not a copy each, and it is
// read-only, so nothing staging does can change it.
func TestPayloadCacheMapsHitsOncePerEngine(t *testing.T) {
	ctx := context.Background()
	e, err := component.NewEngine(ctx, component.Config{CacheDir: filepath.Join(t.TempDir(), "cache")})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(ctx)
	k := [32]byte{3}
	payloadCache(ctx, e).Put(k, []byte("\x00asm inflated payload"))
	first, ok := payloadCache(ctx, e).Get(k)
	if !ok || string(first) != "\x00asm inflated payload" {
		t.Fatalf("Get = %q, %v after Put", first, ok)
	}
	second, ok := payloadCache(ctx, e).Get(k)
	if !ok || &second[0] != &first[0] {
		t.Error("a second staging got the payload again, not the first one's mapping")
	}
	if !writeFaults(first) {
		t.Error("writing to a cached payload did not fault")
	}
}

// writeFaults reports whether writing to b faults.
func writeFaults(b []byte) (faulted bool) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() { faulted = recover() != nil }()
	b[0] ^= 0xff
	return false
}
