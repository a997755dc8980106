package launch

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/mur-go/mur/internal/base/confined"
	"github.com/mur-go/mur/internal/remote/a2a"
)

// A trace.jsonl link the capsule planted in the session dir is refused:
// the runtime appends to no file outside (or inside) it through the link.
func TestSendRecordsRefusePlantedTraceLink(t *testing.T) {
	dir, outside := t.TempDir(), filepath.Join(t.TempDir(), "precious")
	if err := os.WriteFile(outside, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "trace.jsonl")); err != nil {
		t.Fatal(err)
	}
	err := writeSendRecords(dir, "ses_1", []a2a.SendRecord{{PeerURL: "http://127.0.0.1:9/", MessageID: "m"}})
	if !errors.Is(err, confined.ErrSymlink) {
		t.Fatalf("err = %v, want the link refused", err)
	}
	if b, _ := os.ReadFile(outside); string(b) != "precious" {
		t.Fatalf("the runtime appended through the link: %q", b)
	}
}
