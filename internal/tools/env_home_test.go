package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A .capsule-home link planted in a reused workdir is refused, so native
// tools never get the link's target as $HOME.
func TestSyntheticHomeRefusesLink(t *testing.T) {
	work, real := t.TempDir(), t.TempDir()
	if err := os.Symlink(real, filepath.Join(work, ".capsule-home")); err != nil {
		t.Fatal(err)
	}
	_, err := SubprocessEnv{Workdir: work}.Build()
	if err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("err = %v, want the planted link refused", err)
	}
	fresh := t.TempDir()
	env, err := SubprocessEnv{Workdir: fresh}.Build()
	if err != nil || !strings.Contains(strings.Join(env, "\n"), "HOME="+filepath.Join(fresh, ".capsule-home")) {
		t.Fatalf("env = %v, %v", env, err)
	}
}
