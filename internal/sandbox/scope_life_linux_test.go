package sandbox

// A session's scope must not outlive its runtime, however it ends (issue
// 23 item 6): its reaper, the sweep of stale scopes, and a drain that a
// hostile tree cannot outrun.

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// lifeBound bounds every wait on a condition in these tests.
const lifeBound = 20 * time.Second

// newScope builds a scope for one test; the cleanup removes whatever the
// code under test left (its own loop, not the code's).
func newScope(t *testing.T, session string, pidsMax uint64) *Cgroup {
	t.Helper()
	if s := ProbeCgroup(t.Context()); s.Mechanism == "" {
		t.Skipf("no cgroup scope can be built on this host: %s", s.Reason)
	}
	cg, err := NewCgroup(CgroupRequest{SessionID: session, Limits: CgroupLimits{MemoryBytes: 1 << 30, PidsMax: pidsMax, CPUPercent: 100},
		Reaper: self(t)})
	if err != nil {
		t.Fatal(err)
	}
	dirs := cg.Dirs()
	t.Cleanup(func() { forceRemove(dirs) })
	return cg
}

// forceRemove stops and removes leaves by hand: no fork succeeds once
// pids.max is 0, then every member is killed until the leaves go.
func forceRemove(dirs []string) {
	for _, d := range dirs {
		_ = writeFile(d, "pids.max", "0")
	}
	for deadline := time.Now().Add(lifeBound); time.Now().Before(deadline); {
		left := 0
		for _, d := range dirs {
			b, _ := os.ReadFile(filepath.Join(d, "cgroup.procs"))
			for _, f := range strings.Fields(string(b)) {
				if pid, err := strconv.Atoi(f); err == nil && pid > 0 {
					unix.Kill(pid, unix.SIGKILL)
				}
			}
			if err := os.Remove(d); err != nil && !errors.Is(err, os.ErrNotExist) {
				left++
			}
		}
		if left == 0 {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// startIn starts argv (argv[0] a path) in the scope, returning once it
// runs there.
func startIn(t *testing.T, cg *Cgroup, argv ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	if err := (Trampoline{Self: self(t), Limits: bigLimits(), Cgroup: cg}).Start(cmd); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	return cmd
}

// reapersOf are the running reapers of the scope whose first leaf is
// leaf, children of this process.
func reapersOf(leaf string) []int {
	var out []int
	procs, _ := filepath.Glob("/proc/[0-9]*")
	for _, p := range procs {
		stat, err := os.ReadFile(filepath.Join(p, "stat"))
		if err != nil {
			continue
		}
		f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(f) < 2 || f[0] == "Z" || f[1] != strconv.Itoa(os.Getpid()) {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join(p, "cmdline"))
		if args := strings.Split(string(cmdline), "\x00"); len(args) > 2 && args[1] == ReaperMode && args[2] == leaf {
			pid, _ := strconv.Atoi(filepath.Base(p))
			out = append(out, pid)
		}
	}
	return out
}

// waitFor polls cond until it holds or the bound passes.
func waitFor(cond func() bool) bool {
	for deadline := time.Now().Add(lifeBound); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			return false
		}
	}
	return true
}

func gone(dirs []string) bool {
	for _, d := range dirs {
		if _, err := os.Stat(d); !errors.Is(err, os.ErrNotExist) {
			return false
		}
	}
	return true
}

// A tool that kills the reaper does not leave the session without one:
// the runtime starts another, and Close ends it.
func TestReaperIsRestarted(t *testing.T) {
	cg := newScope(t, "ses_restart", 16)
	leaf := cg.Dirs()[0]
	first := reapersOf(leaf)
	if len(first) != 1 {
		t.Fatalf("reapers of %s: %v, want one", leaf, first)
	}
	if err := unix.Kill(first[0], unix.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if !waitFor(func() bool { r := reapersOf(leaf); return len(r) == 1 && r[0] != first[0] }) {
		t.Fatalf("no new reaper after %d was killed: %v", first[0], reapersOf(leaf))
	}
	if err := cg.Close(); err != nil {
		t.Fatal(err)
	}
	if !waitFor(func() bool { return len(reapersOf(leaf)) == 0 }) {
		t.Errorf("reapers outlived Close: %v", reapersOf(leaf))
	}
}

// The reaper's half: once its lifeline reaches EOF (here closed by hand,
// as the runtime's death closes it) it kills the scope's processes and
// removes its leaves, while the runtime does nothing.
func TestReaperRemovesTheScopeAtEOF(t *testing.T) {
	cg := newScope(t, "ses_eof", 16)
	member := startIn(t, cg, self(t), attackMode, "sleep")
	dirs := cg.Dirs()
	r := cg.reaper
	r.mu.Lock()
	life := r.life
	r.life = nil // its watch must not start another
	r.mu.Unlock()
	life.Close()
	if err := member.Wait(); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Errorf("the scope's process: %v, want killed", err)
	}
	if !waitFor(func() bool { return gone(dirs) }) {
		t.Errorf("the reaper left the scope: %v", dirs)
	}
	if err := cg.Close(); err != nil {
		t.Errorf("Close after the reaper: %v", err)
	}
}

// A reaper started by hand, with leaves whose locks it was not handed,
// removes nothing: without a lifeline it refuses, with one it spares
// every leaf.
func TestReaperByHandRemovesNothing(t *testing.T) {
	cg := newScope(t, "ses_hand", 16)
	out, err := exec.Command(self(t), append([]string{ReaperMode}, cg.Dirs()...)...).CombinedOutput()
	if code := exitCode(err); code != 2 || !strings.Contains(string(out), "never by hand") {
		t.Errorf("without a lifeline: exit %d, %s", code, out)
	}
	lifeR, lifeW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	ackR, ackW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer ackR.Close()
	cmd := exec.Command(self(t), append([]string{ReaperMode}, cg.Dirs()...)...)
	cmd.ExtraFiles = []*os.File{lifeR, ackW}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lifeR.Close()
	ackW.Close()
	lifeW.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("the hand-started reaper: %v", err)
	}
	for _, d := range cg.Dirs() {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("a hand-started reaper removed %s: %v", d, err)
		}
	}
	if err := cg.Close(); err != nil {
		t.Fatal(err)
	}
}

func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// A tree in which each process starts the next and exits, without end,
// cannot outrun Close: once pids.max is 0 no member can start another,
// so the scope is removed within its bound whatever the race.
func TestCgroupCloseStopsAForkChain(t *testing.T) {
	cg := newScope(t, "ses_chain", 64)
	const chain = `sh -c "$0" "$0" & exit`
	startIn(t, cg, "/bin/sh", "-c", chain, chain).Wait()
	// The chain runs in the scope after its first shell has exited.
	if !waitFor(func() bool { return len(members(cg.Dirs())) > 0 }) {
		t.Fatal("the chain never ran")
	}
	dirs := cg.Dirs()
	if err := cg.Close(); err != nil {
		t.Fatalf("the chain outran Close: %v", err)
	}
	if !gone(dirs) {
		t.Errorf("the scope is still there: %v", dirs)
	}
}

// The sweep removes a scope whose runtime and reaper are both gone,
// killing what still runs in it, and leaves alone a live scope (its locks
// held) and a leaf without a record.
func TestSweepRemovesOnlyStaleScopes(t *testing.T) {
	live := newScope(t, "ses_live", 16)
	stale := newScope(t, "ses_stale", 16)
	member := startIn(t, stale, self(t), attackMode, "sleep")
	bare := filepath.Join(filepath.Dir(live.Dirs()[0]), "murmur-unmarked-"+strconv.Itoa(os.Getpid())+"-0")
	if err := os.Mkdir(bare, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(bare) })
	dirs := stale.Dirs()
	dieWithoutCleanup(t, stale)

	swept, err := SweepStaleScopes()
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(swept, func(s StaleScope) bool { return s.Name == filepath.Base(dirs[0]) })
	if i < 0 {
		t.Fatalf("the stale scope %s was not swept: %v", dirs[0], swept)
	}
	if s := swept[i]; s.Err != nil || s.Killed != 1 || s.Owner != os.Getpid() || !slices.Equal(s.Dirs, dirs) {
		t.Errorf("swept %+v, want %v removed with 1 process killed", s, dirs)
	}
	if !gone(dirs) {
		t.Errorf("the stale scope is still there: %v", dirs)
	}
	if err := member.Wait(); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Errorf("the stale scope's process: %v, want killed", err)
	}
	for _, s := range swept {
		if s.Name == filepath.Base(live.Dirs()[0]) || s.Name == filepath.Base(bare) {
			t.Errorf("swept %v", s)
		}
	}
	for _, d := range append(live.Dirs(), bare) {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("the sweep removed %s: %v", d, err)
		}
	}
	if err := live.Close(); err != nil {
		t.Fatal(err)
	}
}

// dieWithoutCleanup makes cg what a SIGKILL of its runtime and of its
// reaper leaves behind: the reaper killed (and not restarted), the
// leaves' locks and descriptors dropped, nothing drained.
func dieWithoutCleanup(t *testing.T, cg *Cgroup) {
	t.Helper()
	r := cg.reaper
	r.mu.Lock()
	life, exited := r.life, r.exited
	r.life = nil // its watch must not start another
	r.mu.Unlock()
	pids := reapersOf(cg.leaves[0])
	if len(pids) != 1 {
		t.Fatalf("reapers: %v", pids)
	}
	if err := unix.Kill(pids[0], unix.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-exited
	life.Close()
	for _, f := range append(cg.locks, cg.procs...) {
		f.Close()
	}
}

func TestScopeRecord(t *testing.T) {
	for _, c := range []struct {
		name, in string
		ok       bool
	}{
		{"v1", "mur-scope 1\nowner 42\nleaf /sys/fs/cgroup/memory/a/murmur-s-42-0\nleaf /sys/fs/cgroup/pids/murmur-s-42-0\n", true},
		{"v2", "mur-scope 1\nowner 7\nleaf /sys/fs/cgroup/u/murmur-ses_x-7-3\n", true},
		{"no leaf", "mur-scope 1\nowner 7\n", false},
		{"other names", "mur-scope 1\nowner 7\nleaf /a/murmur-x-7-0\nleaf /b/murmur-y-7-0\n", false},
		{"relative", "mur-scope 1\nowner 7\nleaf a/murmur-x-7-0\n", false},
		{"unclean", "mur-scope 1\nowner 7\nleaf /a/../b/murmur-x-7-0\n", false},
		{"supervisor", "mur-scope 1\nowner 7\nleaf /a/murmur-supervisor\n", false},
		{"not a scope", "mur-scope 1\nowner 7\nleaf /sys/fs/cgroup/pids/user.slice\n", false},
		{"bad owner", "mur-scope 1\nowner -1\nleaf /a/murmur-x-7-0\n", false},
		{"padded owner", "mur-scope 1\nowner 07\nleaf /a/murmur-x-7-0\n", false},
		{"unterminated", "mur-scope 1\nowner 7\nleaf /a/murmur-x-7-0", false},
		{"other version", "mur-scope 2\nowner 7\nleaf /a/murmur-x-7-0\n", false},
		{"empty", "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := decodeScopeRecord([]byte(c.in))
			if (err == nil) != c.ok {
				t.Fatalf("decode: %+v, %v", r, err)
			}
			if c.ok && string(r.encode()) != c.in {
				t.Errorf("encode(decode) = %q", r.encode())
			}
		})
	}
}

// The record is read from an attribute anyone who may write the leaf can
// set: decoding never panics, and what decodes is a valid record.
func FuzzDecodeScopeRecord(f *testing.F) {
	f.Add([]byte("mur-scope 1\nowner 42\nleaf /sys/fs/cgroup/pids/murmur-s-42-0\n"))
	f.Add([]byte("mur-scope 1\nowner 1\nleaf /x/murmur-a-1-0\nleaf /y/murmur-a-1-0\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := decodeScopeRecord(b)
		if err != nil {
			return
		}
		if r.Owner <= 0 || len(r.Leaves) == 0 || len(r.Leaves) > maxScopeLeaves {
			t.Fatalf("decoded %+v", r)
		}
		for _, l := range r.Leaves {
			if !filepath.IsAbs(l) || filepath.Clean(l) != l || filepath.Base(l) != filepath.Base(r.Leaves[0]) || !isScopeName(filepath.Base(l)) {
				t.Fatalf("decoded leaf %q", l)
			}
		}
		if !bytes.Equal(r.encode(), b) {
			t.Fatalf("encode(decode(%q)) = %q", b, r.encode())
		}
	})
}
