package hooks

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const hookStageEscape = "hook-stage-escape"

// on-stage (wit.md §6.3, §6.4): blocking hooks bound to it or unbound get
// a throwaway instance and their write-manifests are written over the
// generated shell-tool manifest (and kept by the session, which reads
// it as the inventory lists it); failures are logged and staging goes on.
func TestOnStageWriteManifests(t *testing.T) {
	s := staged(t, blocking("bound", hookAnswer050).bound(fnStage), blocking("errs", hookErrs).bound(fnStage),
		blocking("later", hookErrs).bound(fnInference), blocking("old", "hook-lifecycle"))
	s, kept := onStage(s)
	if err := Stage(context.Background(), Options{Staged: s}); err != nil {
		t.Fatal(err)
	}
	want := "description: from on-stage\n"
	if b, err := os.ReadFile(filepath.Join(s.ToolsDir, "git", "murmur.yaml")); err != nil || string(b) != want {
		t.Errorf("tools/git/murmur.yaml = %q, %v", b, err)
	}
	if got := kept["git"]; got != want {
		t.Errorf("the session kept %q for git", got)
	}
	if got := hookLog(t, s, "errs"); !slices.Equal(got, []string{fnStage}) {
		t.Errorf("errs log = %q", got)
	}
	if got := hookLog(t, s, "later"); got != nil {
		t.Errorf("a hook bound to on-inference ran at staging: %q", got)
	}
	if got := hookLog(t, s, "old"); !slices.Equal(got, []string{"hook old@0.1.0 missing on-stage"}) {
		t.Errorf("old log = %q", got)
	}
}

// A hostile on-stage hook naming a binary that climbs out of tools/ writes
// nothing outside it; its other manifests are still written.
func TestOnStageManifestCannotEscapeTools(t *testing.T) {
	s, _ := onStage(staged(t, blocking("evil", hookStageEscape).bound(fnStage)))
	if err := Stage(context.Background(), Options{Staged: s}); err != nil {
		t.Fatal(err)
	}
	escaped := filepath.Join(filepath.Dir(filepath.Dir(filepath.Dir(s.ToolsDir))), "escaped")
	if _, err := os.Stat(escaped); !os.IsNotExist(err) {
		t.Errorf("%s was created (%v)", escaped, err)
	}
	if b, err := os.ReadFile(filepath.Join(s.ToolsDir, "ok-tool", "murmur.yaml")); err != nil || string(b) != "description: fine\n" {
		t.Errorf("ok-tool manifest = %q, %v", b, err)
	}
	log := hookLog(t, s, "evil")
	if len(log) != 1 || !strings.HasPrefix(log[0], "failed to create tool dir for ../../../escaped: ") {
		t.Errorf("log = %q", log)
	}
}
