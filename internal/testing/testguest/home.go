package testguest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Main runs a test binary's tests (call it from TestMain) and fails the run
// if they created, changed or removed anything under the user's mur
// directories: os.UserCacheDir()/mur (the default compilation cache) and
// ~/.murmur (the default artifact store). Tests must use temp dirs,
// CacheDir and, for anything that runs mur, a HOME of their own.
func Main(m *testing.M) int {
	roots := userMurDirs()
	before := snapshot(roots)
	code := m.Run()
	if changed := diff(before, snapshot(roots)); len(changed) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: the user's home changed while the tests ran: %s\n"+
			"tests must use t.TempDir(), testguest.CacheDir() or a HOME of their own "+
			"(if another program wrote there meanwhile, run the tests again)\n", strings.Join(changed, ", "))
		if code == 0 {
			code = 1
		}
	}
	return code
}

// userMurDirs are the directories mur uses by default, resolved from the
// environment the test binary started with.
func userMurDirs() []string {
	var roots []string
	if dir, err := os.UserCacheDir(); err == nil {
		roots = append(roots, filepath.Join(dir, "mur"))
	}
	if dir, err := os.UserHomeDir(); err == nil {
		roots = append(roots, filepath.Join(dir, ".murmur"))
	}
	return roots
}

// snapshot maps every path under roots to its type, size and modification
// time; a missing root has no entries.
func snapshot(roots []string) map[string]string {
	files := map[string]string{}
	for _, root := range roots {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			files[path] = fmt.Sprintf("%v %d %d", info.Mode(), info.Size(), info.ModTime().UnixNano())
			return nil
		})
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			// An unreadable entry still counts, so a change to it is seen.
			files[root] = "unreadable: " + err.Error()
		}
	}
	return files
}

// diff lists the paths added, changed or removed between two snapshots,
// at most a few of them.
func diff(before, after map[string]string) []string {
	var changed []string
	for path, a := range after {
		if b, ok := before[path]; !ok {
			changed = append(changed, "created "+path)
		} else if a != b {
			changed = append(changed, "changed "+path)
		}
	}
	for path := range before {
		if _, ok := after[path]; !ok {
			changed = append(changed, "removed "+path)
		}
	}
	sort.Strings(changed)
	if len(changed) > 5 {
		changed = append(changed[:5], fmt.Sprintf("and %d more", len(changed)-5))
	}
	return changed
}
