package provision_test

import (
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mur-go/mur/internal/format/lockfile"
	"github.com/mur-go/mur/internal/store/provision"
	"github.com/mur-go/mur/internal/store/registry"
)

// Capsule installs what a manifest declares from the registry with the
// built-in artifacts behind it: a failure is reported beside the
// successes, which are stored all the same, but murmur.lock pins all of
// them or none.
func TestCapsuleInstallsWhatItCanAndPinsAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	manifest := filepath.Join(dir, "murmur.yaml")
	yaml := "name: c\nversion: \"0.1.0\"\nartifacts:\n" +
		"  - name: scripted\n    version: \"0.1.0\"\n    runtime: driver\n" +
		"  - name: nowhere\n    version: \"1.0.0\"\n    runtime: tool\n" +
		"  - name: local-skill\n    source: ./skill\n" +
		"  - name: scripted\n    version: \"0.1.0\"\n    runtime: driver\n"
	if err := os.WriteFile(manifest, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "home")
	var mu sync.Mutex
	var done []string
	rep, err := provision.Capsule(t.Context(), provision.Options{Manifest: manifest, Registry: "local",
		Getenv: func(k string) string {
			if k == "HOME" {
				return home
			}
			return ""
		},
		Log: slog.New(slog.DiscardHandler),
		OnDone: func(d provision.Declared, n, total int, err error) {
			mu.Lock()
			defer mu.Unlock()
			done = append(done, d.Name)
			if total != 2 || n != len(done) {
				t.Errorf("OnDone(%s, %d, %d): want the count of finished of 2", d.Name, n, total)
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	want := []provision.Declared{{Name: "scripted", Version: "0.1.0"}, {Name: "nowhere", Version: "1.0.0"}}
	if !slices.Equal(rep.Declared, want) {
		t.Fatalf("Declared = %v, want %v (local sources and duplicates left out)", rep.Declared, want)
	}
	slices.Sort(done)
	if !slices.Equal(done, []string{"nowhere", "scripted"}) {
		t.Errorf("OnDone saw %v", done)
	}
	if rep.Errs[0] != nil || !errors.Is(rep.Errs[1], registry.ErrNotFound) {
		t.Errorf("Errs = %v; want scripted installed and nowhere not found", rep.Errs)
	}
	if rep.Store != registry.ProjectRoot(dir) || rep.Target.Remote {
		t.Errorf("Store %s, Target %v; want the project store, from the local registry", rep.Store, rep.Target)
	}
	if !strings.HasPrefix(rep.Installed[0].Path, rep.Store) {
		t.Errorf("scripted stored at %s, outside %s", rep.Installed[0].Path, rep.Store)
	}
	if _, err := os.Stat(rep.LockPath); !errors.Is(err, os.ErrNotExist) || rep.Pinned {
		t.Errorf("one artifact of two failed, yet murmur.lock was written (Pinned %v, %v)", rep.Pinned, err)
	}

	// Once every artifact installs, all are pinned together.
	yaml = "name: c\nversion: \"0.1.0\"\nartifacts:\n" +
		"  - name: scripted\n    version: \"0.1.0\"\n    runtime: driver\n" +
		"  - name: anthropic\n    version: \"0.1.0\"\n    runtime: driver\n"
	if err := os.WriteFile(manifest, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err = provision.Capsule(t.Context(), provision.Options{Manifest: manifest, Registry: "local",
		Getenv: func(k string) string {
			if k == "HOME" {
				return home
			}
			return ""
		},
		Log: slog.New(slog.DiscardHandler)})
	if err != nil || !rep.Pinned {
		t.Fatalf("Pinned %v, %v", rep.Pinned, err)
	}
	lock, err := lockfile.Read(rep.LockPath)
	if err != nil {
		t.Fatal(err)
	}
	if len(lock.Artifacts) != 2 || lock.Artifacts[0] != rep.Installed[0].Pin && lock.Artifacts[1] != rep.Installed[0].Pin {
		t.Errorf("murmur.lock pins %+v; want both drivers", lock.Artifacts)
	}
}
