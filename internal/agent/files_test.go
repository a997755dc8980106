package agent

import (
	"os"
	"path/filepath"
	"testing"
)

// The run's files keep working when a guest removes out/ or logs/
// between tasks: out/ is made again for the next result, and the
// bootstrap log, open since its first line, takes every later line in one
// write each.
func TestFilesSurviveRemovedDirs(t *testing.T) {
	s := testStaged(t, nil)
	f, err := openFiles(s.Workdir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.close()
	for i, text := range []string{"first answer", "second answer"} {
		if err := f.writeResult(text); err != nil {
			t.Fatalf("result %d: %v", i, err)
		}
		if b, _ := os.ReadFile(filepath.Join(s.OutDir, "result.txt")); string(b) != text {
			t.Fatalf("result %d: out/result.txt holds %q", i, b)
		}
		if err := f.appendBootstrap([]byte(text + "\n")); err != nil {
			t.Fatalf("bootstrap line %d: %v", i, err)
		}
		if err := os.RemoveAll(s.OutDir); err != nil {
			t.Fatal(err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(s.LogsDir, "bootstrap.log")); string(b) != "first answer\nsecond answer\n" {
		t.Errorf("bootstrap.log holds %q", b)
	}
	if text, err := f.readTask(); err != nil || text != "do it" {
		t.Errorf("task %q (%v), want the task.md text", text, err)
	}
}
