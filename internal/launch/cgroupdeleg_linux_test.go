package launch_test

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

// delegations numbers the cgroups delegateCgroup makes, so that one test
// may make several.
var delegations atomic.Int64

// delegateCgroup is what an administrator does for a user who runs mur
// in a container: a cgroup of this test's own, owned by uid, that mur
// (started by start as uid) sits in and may build its scope under. It
// returns how to start cmd inside it: v2 clones it there
// (CLONE_INTO_CGROUP); v1 has no such clone, so a shell running as uid
// writes itself into each hierarchy's delegated cgroup and execs mur.
func delegateCgroup(t *testing.T, uid int) func(*exec.Cmd) {
	t.Helper()
	s := sandbox.ProbeCgroup()
	if s.Mechanism == "" {
		t.Skipf("no cgroup to delegate on this host: %s", s.Reason)
	}
	ctls := []string{"memory", "pids", "cpu"}
	if b, err := os.ReadFile("/proc/self/cgroup"); err == nil && strings.Contains(string(b), ":blkio:") {
		// mur puts a leaf there too where it can: the whole scope is then
		// under this test's cgroups.
		ctls = append(ctls, "blkio")
	}
	if s.Mechanism == sandbox.CgroupV2 {
		ctls = []string{""}
	}
	n := delegations.Add(1)
	var dirs []string
	for _, ctl := range ctls {
		dir := filepath.Join(cgroupOf(t, ctl), fmt.Sprintf("mur-test-%d-%d", os.Getpid(), n))
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Remove(dir) })
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range append(entries, nil) {
			p := dir
			if e != nil {
				p = filepath.Join(dir, e.Name())
			}
			if err := os.Chown(p, uid, uid); err != nil && e == nil {
				t.Fatal(err)
			}
		}
		dirs = append(dirs, dir)
	}
	if s.Mechanism == sandbox.CgroupV2 {
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

// cgroupOf is this process's cgroup directory for controller ctl ("" is
// v2), assuming the usual mounts under /sys/fs/cgroup.
func cgroupOf(t *testing.T, ctl string) string {
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
