package wasip2_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mur-go/mur/engine/wasip2"
)

// TestRenameOntoDirectory: rename-at replaces an existing empty directory
// as POSIX rename does, refuses a non-empty one with not-empty and a
// kind mismatch with is-directory / not-directory, and the new power to
// replace a directory reaches neither a hidden entry nor, through a host
// link, a directory outside the preopen.
func TestRenameOntoDirectory(t *testing.T) {
	tmp := t.TempDir()
	work, outside := filepath.Join(tmp, "work"), filepath.Join(tmp, "outside")
	for _, d := range []string{"src/deep", "src2", "empty", "empty2", "full/keep", "sub/empty", "tools", "blocker", outside + "/empty"} {
		if !filepath.IsAbs(d) {
			d = filepath.Join(work, d)
		}
		must(t, os.MkdirAll(d, 0o755))
	}
	must(t, os.WriteFile(filepath.Join(work, "src", "deep", "f"), []byte("moved"), 0o644))
	must(t, os.WriteFile(filepath.Join(work, "file"), []byte("mine"), 0o644))
	// Host links leading out of the preopen.
	must(t, os.Symlink("../outside", filepath.Join(work, "out")))
	must(t, os.Symlink("../outside/empty", filepath.Join(work, "outempty")))
	must(t, os.Symlink("..", filepath.Join(work, "sub", "root")))
	before := tree(t, outside) + tree(t, filepath.Join(work, "tools")) + tree(t, filepath.Join(work, "full"))
	g := wasip2.Grants{Dirs: []wasip2.DirGrant{{Host: work, Guest: "/work", Hide: []string{"tools"}}}}
	expect(t, g, [][2]string{
		{"rename src empty", "ok"},
		{"read empty/deep/f", "content=moved"},
		{"ls .", "entries=blocker,empty,empty2,file,full,out,outempty,src2,sub"},
		{"rename src2 sub/empty/", "ok"},
		{"rename empty2 full", "errno=ENOTEMPTY"},
		{"rename file sub/empty", "errno=EISDIR"},
		{"rename blocker file", "errno=ENOTDIR"},
		{"rename sub/empty sub/empty", "ok"},
		// Attacks with the new power: a hidden directory, one outside
		// reached through a host link, the link itself, the root.
		{"rename blocker tools", "errno=EACCES"},
		{"rename blocker out/empty", "errno=EPERM"},
		{"rename out/empty moved", "errno=EPERM"},
		{"rename blocker outempty", "errno=ENOTDIR"},
		{"rename blocker outempty/", "errno=ENOTDIR"},
		{"rename blocker sub/root/", "errno=ENOTDIR"},
		{"rename blocker sub/..", "errno=EBUSY"},
		{"rename sub/.. blocker", "errno=EBUSY"},
		{"rename blocker .", "errno=EBUSY"},
	})
	if after := tree(t, outside) + tree(t, filepath.Join(work, "tools")) + tree(t, filepath.Join(work, "full")); after != before {
		t.Errorf("the guest changed what it must not reach:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	if fi, err := os.Lstat(filepath.Join(work, "outempty")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the host link was replaced: %v %v", fi, err)
	}
}

// TestSetTimesOfSymlinkItself: set-times-at without symlink-follow sets
// the link's own times and leaves its target alone, also when the target
// is outside the preopen; a trailing slash still means the target, which
// stays out of reach.
func TestSetTimesOfSymlinkItself(t *testing.T) {
	tmp := t.TempDir()
	work, secret := filepath.Join(tmp, "work"), filepath.Join(tmp, "secret")
	must(t, os.MkdirAll(filepath.Join(work, "sub", "tools"), 0o755))
	must(t, os.MkdirAll(filepath.Join(work, "tools"), 0o755))
	must(t, os.WriteFile(filepath.Join(work, "file"), []byte("mine"), 0o644))
	must(t, os.MkdirAll(secret, 0o755))
	must(t, os.Symlink("file", filepath.Join(work, "link")))
	must(t, os.Symlink("../secret", filepath.Join(work, "out")))
	must(t, os.Symlink("tools", filepath.Join(work, "toolslink")))
	old := time.Unix(1<<30, 0)
	for _, p := range []string{filepath.Join(work, "file"), secret, filepath.Join(work, "tools")} {
		must(t, os.Chtimes(p, old, old))
	}
	g := wasip2.Grants{Dirs: []wasip2.DirGrant{{Host: work, Guest: "/work", Hide: []string{"tools"}}}}
	expect(t, g, [][2]string{
		{"lutimes link", "ok"},
		{"lutimes out", "ok"},
		{"lutimes sub/tools", "ok"},
		{"lutimes sub/..", "ok"},
		{"lutimes out/", "errno=EPERM"},
		{"lutimes tools", "errno=ENOENT"},
		{"lutimes toolslink/", "errno=ENOENT"},
		{"lutimes missing", "errno=ENOENT"},
	})
	want := time.Unix(1e9, 0)
	for _, tc := range []struct {
		path string
		want time.Time
	}{
		{"link", want},
		{"out", want},
		{"sub/tools", want},
		{".", want},
		{"file", old},
		{"tools", old},
		{"../secret", old},
	} {
		fi, err := os.Lstat(filepath.Join(work, tc.path))
		if err != nil {
			t.Fatal(err)
		}
		if !fi.ModTime().Equal(tc.want) {
			t.Errorf("%s: modified %v, want %v", tc.path, fi.ModTime(), tc.want)
		}
	}
}
