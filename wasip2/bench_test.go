package wasip2_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/mur-go/mur/component"
	"github.com/mur-go/mur/wasip2"
	"github.com/mur-go/mur/wit"
)

// BenchmarkFileCopy1MiB reads a 1 MiB file and writes it back through the
// Go guest; BenchmarkFileCopy1MiBNative is the same work in host Go. The
// ratio of the two is the throughput number.
func BenchmarkFileCopy1MiB(b *testing.B) {
	dir := b.TempDir()
	os.WriteFile(filepath.Join(dir, "in"), bytes.Repeat([]byte("x"), 1<<20), 0o644)
	var out bytes.Buffer
	inst, _ := instantiate(b, "wasitest-go", wasip2.Grants{
		Dirs:   []wasip2.DirGrant{{Host: dir, Guest: "/d"}},
		Stdout: wasip2.Output{W: &out},
	}, component.Limits{})
	f, _ := inst.Func(runExport)
	b.SetBytes(2 << 20)
	b.ResetTimer()
	for b.Loop() {
		if _, err := f.Call(context.Background(), []any{wit.Some("copy /d/in /d/out"), wit.None()}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFileCopy1MiBNative(b *testing.B) {
	dir := b.TempDir()
	os.WriteFile(filepath.Join(dir, "in"), bytes.Repeat([]byte("x"), 1<<20), 0o644)
	b.SetBytes(2 << 20)
	for b.Loop() {
		data, err := os.ReadFile(filepath.Join(dir, "in"))
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, "out"), data, 0o644)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
}
