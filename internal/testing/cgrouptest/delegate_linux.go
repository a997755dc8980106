package cgrouptest

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/mur-go/mur/internal/sandbox"
)

// made numbers the cgroups this package makes, so that one test may make
// several.
var made atomic.Int64

// Delegate is what an administrator does for a user who runs mur in a
// container: a cgroup of this test's own, owned by uid, that mur
// (started by start as uid) sits in and may build its scope under. It
// returns how to start cmd inside it: v2 clones it there
// (CLONE_INTO_CGROUP); v1 has no such clone, so a shell running as uid
// writes itself into each hierarchy's delegated cgroup and execs mur.
func Delegate(t testing.TB, uid int) func(*exec.Cmd) {
	t.Helper()
	s := sandbox.ProbeCgroup(t.Context())
	if s.Mechanism == "" {
		t.Skipf("no cgroup to delegate on this host: %s", s.Reason)
	}
	v2 := Unified(t)
	dirs := Make(t, "mur-test", v2)
	for _, dir := range dirs {
		if err := chownCgroup(dir, uid); err != nil {
			t.Fatal(err)
		}
	}
	if v2 {
		return func(c *exec.Cmd) {
			f, err := os.Open(dirs[0])
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { f.Close() })
			if c.SysProcAttr == nil {
				c.SysProcAttr = &syscall.SysProcAttr{}
			}
			c.SysProcAttr.UseCgroupFD, c.SysProcAttr.CgroupFD = true, int(f.Fd())
		}
	}
	return func(c *exec.Cmd) {
		args := []string{"sh", "-c", `while [ "$1" != -- ]; do echo $$ > "$1/cgroup.procs" || exit 1; shift; done; shift; exec "$@"`, "sh"}
		args = append(append(append(args, dirs...), "--", c.Path), c.Args[1:]...)
		c.Path, c.Args = "/bin/sh", args
	}
}

// Unified says whether mur builds its scope in the unified hierarchy
// here (a cgroup v2 host), rather than in the v1 ones (a hybrid host).
func Unified(t testing.TB) bool {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(Of(t, ""), "cgroup.controllers"))
	return err == nil && strings.Contains(" "+strings.TrimSpace(string(b))+" ", " memory ")
}

// Make creates a cgroup named <prefix>-<pid>-<n> under this process's
// own in each hierarchy a scope uses: the unified one if v2, else the
// v1 memory, pids and cpu ones (and blkio, where mur puts a leaf when it
// can), removed at the end of the test once empty.
func Make(t testing.TB, prefix string, v2 bool) []string {
	t.Helper()
	ctls := []string{"memory", "pids", "cpu"}
	if b, err := os.ReadFile("/proc/self/cgroup"); err == nil && strings.Contains(string(b), ":blkio:") {
		ctls = append(ctls, "blkio")
	}
	if v2 {
		ctls = []string{""}
	}
	n := made.Add(1)
	var dirs []string
	for _, ctl := range ctls {
		dir := filepath.Join(Of(t, ctl), fmt.Sprintf("%s-%d-%d", prefix, os.Getpid(), n))
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Remove(dir) })
		dirs = append(dirs, dir)
	}
	return dirs
}

// Of is this process's cgroup directory for controller ctl ("" is v2),
// assuming the usual mounts under /sys/fs/cgroup.
func Of(t testing.TB, ctl string) string {
	t.Helper()
	f, err := os.Open("/proc/self/cgroup")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		switch {
		case ctl == "" && parts[1] == "":
			for _, m := range []string{"/sys/fs/cgroup/unified", "/sys/fs/cgroup"} {
				if _, err := os.Stat(filepath.Join(m, "cgroup.controllers")); err == nil {
					return filepath.Join(m, parts[2])
				}
			}
		case ctl != "" && strings.Contains(","+parts[1]+",", ","+ctl+","):
			return filepath.Join("/sys/fs/cgroup", parts[1], parts[2])
		}
	}
	t.Fatalf("no %q cgroup in /proc/self/cgroup", ctl)
	return ""
}
