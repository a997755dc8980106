package wasip2

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wit"
)

// TestDescriptorBudget: with no cap set, a store holds at most
// DefaultMaxOpenFiles files and directories; a stream keeps its file's
// descriptor counted after the descriptor itself is dropped.
func TestDescriptorBudget(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	h := testHost(t)
	c, err := NewCtx(Grants{Dirs: []DirGrant{{Host: dir, Guest: "."}}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	root := h.call(t, c, "wasi:filesystem/preopens#get-directories").([]any)[0].([]any)[0].(wit.Resource)
	open := h.record[fsTypes+"open-at"]
	drop := func(r wit.Resource) { c.take(r.Rep).(dropper).drop() }
	budget := c.preopens[0].fds

	var held []wit.Resource
	for i := range DefaultMaxOpenFiles + 1 {
		name := []string{"f", "d"}[i%2]
		v, err := open(context.Background(), c, []any{root, uint64(1), name, uint64(0), uint64(1)})
		if i == DefaultMaxOpenFiles {
			var le *component.LimitError
			if !errors.As(err, &le) || le.Limit != LimitOpenFiles || le.Max != DefaultMaxOpenFiles {
				t.Fatalf("open %d: %v, want a LimitError", i+1, err)
			}
			break
		}
		if err != nil || v.(wit.ResultValue).Err {
			t.Fatalf("open %d: %v %v", i+1, v, err)
		}
		held = append(held, v.(wit.ResultValue).Value.(wit.Resource))
	}
	for _, r := range held {
		drop(r)
	}
	if budget.open != 0 {
		t.Fatalf("%d descriptors counted after dropping all", budget.open)
	}

	file := h.call(t, c, fsTypes+"open-at", root, uint64(1), "f", uint64(0), uint64(1)).(wit.ResultValue).Value.(wit.Resource)
	stream := h.call(t, c, fsTypes+"read-via-stream", file, uint64(0)).(wit.ResultValue).Value.(wit.Resource)
	drop(file)
	if budget.open != 1 {
		t.Fatalf("a live stream's file counts %d, want 1", budget.open)
	}
	drop(stream)
	if budget.open != 0 {
		t.Fatalf("%d descriptors counted after the stream went", budget.open)
	}
}
