package launch_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Murmur's mur run asks for the version murmur.lock pins, whatever the
// manifest now says (artifacts.md §12 #1): a manifest edited to another
// version runs the pinned one until `mur install` pins anew. mur-go says
// so on stderr rather than staying silent.
func TestRunStagesTheVersionTheLockPins(t *testing.T) {
	p := newProject(t, "  network:\n    allow: []\n", []string{"record"})
	p.run(0, "http://127.0.0.1:9/") // pins record@0.1.0
	path := filepath.Join(p.dir, "murmur.yaml")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(b), "  - name: record\n    version: \"0.1.0\"", "  - name: record\n    version: \"0.2.0\"", 1)
	if edited == string(b) {
		t.Fatalf("no record entry to edit in\n%s", b)
	}
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	s := p.run(0, "http://127.0.0.1:9/")
	if want := "murmur.lock pins record at 0.1.0 and murmur.yaml asks for 0.2.0: running the pinned 0.1.0"; !strings.Contains(s.stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, s.stderr)
	}
	staged, err := os.ReadFile(filepath.Join(s.sessionDir, "tools", "record", "murmur.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(staged), "version: \"0.1.0\"") {
		t.Errorf("the staged record is not the pinned 0.1.0:\n%s", staged)
	}
}
