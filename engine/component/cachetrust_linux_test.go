package component_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/internal/testing/testguest"
)

// The compilation cache holds code the engine runs as it reads it (wazero's
// compiled modules) or compiles without looking again at what produced it
// (the rewritten core modules), so it believes only a directory and
// entries of its own user or root that no one else may write, and an
// entry that reads back whole as the entry of its key. A local user who
// can write the cache, or plant or alter an entry, tries each way in; the
// engine must refuse the directory, or compile the entry afresh and
// replace it (never run what it found).
func TestCacheTrustsOnlyItsOwnEntries(t *testing.T) {
	cacheTrust(t, testguest.Bytes(t, testguest.DriverCanned))
}

// The same as the unprivileged uid 65534 (the test binary re-run through
// setpriv), where a directory or entry of another user is nobody's own.
func TestCacheTrustsOnlyItsOwnEntriesAsNobody(t *testing.T) {
	if os.Getenv("MUR_TEST_CACHE_AS_NOBODY") != "" {
		wasm, err := os.ReadFile(os.Getenv("MUR_TEST_CACHE_WASM"))
		if err != nil {
			t.Fatal(err)
		}
		cacheTrust(t, wasm)
		return
	}
	if os.Geteuid() != 0 {
		t.Skip("not root: TestCacheTrustsOnlyItsOwnEntries already runs as this unprivileged uid")
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Fatalf("util-linux's setpriv: %v", err)
	}
	// The test binary and the guest, where uid 65534 can read them; a HOME
	// and TMPDIR of its own.
	dir := t.TempDir()
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "component.test")
	copyFile(t, self, bin, 0o755)
	wasm := filepath.Join(dir, "guest.wasm")
	if err := os.WriteFile(wasm, testguest.Bytes(t, testguest.DriverCanned), 0o644); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(dir, "tmp")
	if err := os.Mkdir(tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(tmp, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	c := exec.Command(setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", bin,
		"-test.run=^TestCacheTrustsOnlyItsOwnEntriesAsNobody$", "-test.count=1", "-test.v")
	c.Dir = tmp
	c.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + tmp, "TMPDIR=" + tmp,
		"MUR_TEST_CACHE_AS_NOBODY=1", "MUR_TEST_CACHE_WASM=" + wasm, "MUR_TEST_CACHE_FOREIGN_DIR=" + foreignDir(t)}
	out, err := c.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS") {
		t.Fatalf("as uid 65534: %v\n%s", err, out)
	}
	t.Logf("as uid 65534:\n%s", out)
}

func cacheTrust(t *testing.T, wasm []byte) {
	ctx := context.Background()
	compile := func(t *testing.T, dir string) error {
		t.Helper()
		e, err := component.NewEngine(ctx, component.Config{CacheDir: dir})
		if err != nil {
			return err
		}
		defer e.Close(ctx)
		_, err = e.Compile(ctx, wasm)
		return err
	}
	root := os.Geteuid() == 0

	t.Run("directory writable by others is refused", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "cache")
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, 0o777); err != nil {
			t.Fatal(err)
		}
		err := compile(t, dir)
		if err == nil || !strings.Contains(err.Error(), "writable by group or others") {
			t.Fatalf("a cache directory of mode 0777 was used (err %v)", err)
		}
	})
	t.Run("directory of another user is refused", func(t *testing.T) {
		// Given by the root run that started this one, else made here.
		dir := os.Getenv("MUR_TEST_CACHE_FOREIGN_DIR")
		if dir == "" {
			if !root {
				t.Skip("not root: cannot give a directory to another user (the root run does)")
			}
			dir = foreignDir(t)
		}
		err := compile(t, dir)
		if err == nil || !strings.Contains(err.Error(), "owned by uid 4242") {
			t.Fatalf("a cache directory of uid 4242 was used (err %v)", err)
		}
	})

	// Each way an entry may be planted or altered, on each entry the
	// cache holds (wazero's compiled modules, the rewritten modules).
	attacks := []struct {
		name     string
		rootOnly bool
		do       func(t *testing.T, path string)
	}{
		{"a byte of it flipped", false, func(t *testing.T, path string) {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			// In the code of a wazero entry (from 64 KiB on), else at the end
			// of the value.
			i := len(b) - 1
			if len(b) > 64<<10+16 {
				i = 64<<10 + 8
			}
			b[i] ^= 0xff
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{"writable by others", false, func(t *testing.T, path string) {
			if err := os.Chmod(path, 0o666); err != nil {
				t.Fatal(err)
			}
		}},
		{"a symbolic link to a copy", false, func(t *testing.T, path string) {
			cp := filepath.Join(t.TempDir(), "entry")
			copyFile(t, path, cp, 0o600)
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(cp, path); err != nil {
				t.Fatal(err)
			}
		}},
		{"the entry of another key", false, func(t *testing.T, path string) {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			flipKey(b)
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{"owned by another user", true, func(t *testing.T, path string) {
			if err := os.Chown(path, 65534, 65534); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, a := range attacks {
		t.Run("entry "+a.name+" is compiled afresh", func(t *testing.T) {
			if a.rootOnly && !root {
				t.Skip("not root: cannot give a file to another user (the root run does)")
			}
			dir := filepath.Join(t.TempDir(), "cache")
			if err := compile(t, dir); err != nil {
				t.Fatal(err)
			}
			entries := cacheEntries(t, dir)
			if len(entries) < 2 {
				t.Fatalf("the cache holds %d entries after a compile, want a compiled and a rewritten module at least", len(entries))
			}
			for _, path := range entries {
				a.do(t, path)
				altered, alteredBytes := entryState(t, path)
				if err := compile(t, dir); err != nil {
					t.Fatalf("compiling again with %s %s: %v", filepath.Base(filepath.Dir(path)), a.name, err)
				}
				now, nowBytes := entryState(t, path)
				st := now.Sys().(*syscall.Stat_t)
				// Written again: a regular file of this user, mode 0600,
				// other than the altered one (its bytes, mode, owner or type;
				// not its inode, which the file system may reuse).
				afresh := now.Mode().IsRegular() && int(st.Uid) == os.Geteuid() && now.Mode().Perm() == 0o600 &&
					(nowBytes != alteredBytes || now.Mode() != altered.Mode() || st.Uid != altered.Sys().(*syscall.Stat_t).Uid)
				if !afresh {
					t.Errorf("entry %s %s was kept (mode %v, uid %d), not compiled afresh", path, a.name, now.Mode(), st.Uid)
				}
			}
		})
	}
}

// foreignDir is a directory of uid 4242, mode 0755, under a directory
// any user may enter.
func foreignDir(t *testing.T) string {
	t.Helper()
	parent := t.TempDir()
	if err := os.Chmod(parent, 0o755); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(parent, "cache")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(dir, 4242, 4242); err != nil {
		t.Fatal(err)
	}
	return dir
}

// flipKey alters the key an entry carries in its header (wazero's after
// its magic, version and function count; the memo's after its magic).
func flipKey(b []byte) {
	if strings.HasPrefix(string(b), "WAZEVO") {
		b[6+1+int(b[6])+4] ^= 0xff
		return
	}
	b[8] ^= 0xff
}

// entryState is what Lstat says of path, and its bytes (of the file a
// link points to, for a link).
func entryState(t *testing.T, path string) (os.FileInfo, string) {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatalf("entry %s: %v", path, err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("entry %s: %v", path, err)
	}
	return fi, string(b)
}

// cacheEntries lists the cache's entries: the files of its subdirectories.
func cacheEntries(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	subs, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range subs {
		files, err := os.ReadDir(filepath.Join(dir, s.Name()))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			out = append(out, filepath.Join(dir, s.Name(), f.Name()))
		}
	}
	return out
}

func copyFile(t *testing.T, from, to string, mode os.FileMode) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, mode); err != nil {
		t.Fatal(err)
	}
}
