//go:build linux

package tools

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mur-go/mur/internal/sandbox"
	"golang.org/x/sys/unix"
)

// A command dumping its environment finds no host credential, the
// runtime's own pairs, and a HOME inside the workdir; writing through ~
// lands there, not in the real home.
func TestShellEnvironmentHoldsNoHostSecret(t *testing.T) {
	realHome := t.TempDir()
	sh, work := newTestShell(t, map[string]string{
		"HOME": realHome, "USER": "alice", "FOO_API_KEY": "sk-foo", "AWS_SECRET_ACCESS_KEY": "aws", "SLACK_TOKEN": "slack",
		"UNLISTED": "host-only", "KEEP_ME": "kept",
	})
	sh.cfg.Env.BaselineEnv = []string{"KEEP_ME", "FOO_API_KEY", "AWS_SECRET_ACCESS_KEY"}
	sh.cfg.Env.Overrides = [][2]string{{"MURMUR_SESSION_ID", "ses_x"}, {"MURMUR_INFERENCE_API_KEY", "sk-inference"}}
	o, err := sh.RunShell(context.Background(), "sh", commandJSON(`env; echo planted > ~/.bashrc`))
	if err != nil || !o.Ran || o.ExitCode != 0 {
		t.Fatalf("%+v, %v", o, err)
	}
	home := filepath.Join(work, ".capsule-home")
	vars := map[string]string{}
	for _, kv := range strings.Split(o.Stdout, "\n") {
		if k, v, ok := strings.Cut(kv, "="); ok {
			vars[k] = v
		}
	}
	for _, k := range []string{"FOO_API_KEY", "AWS_SECRET_ACCESS_KEY", "MURMUR_INFERENCE_API_KEY", "UNLISTED", "SLACK_TOKEN"} {
		if v, ok := vars[k]; ok {
			t.Errorf("%s=%s reached the command", k, v)
		}
	}
	if vars["HOME"] != home || vars["USERPROFILE"] != home || vars["USER"] != "alice" || vars["KEEP_ME"] != "kept" || vars["MURMUR_SESSION_ID"] != "ses_x" {
		t.Errorf("env:\n%s", o.Stdout)
	}
	if b, err := os.ReadFile(filepath.Join(home, ".bashrc")); err != nil || string(b) != "planted\n" {
		t.Errorf("~/.bashrc in the synthetic home: %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(realHome, ".bashrc")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the real home was written: %v", err)
	}
}

// trampoline starts commands through the test binary (see TestMain)
// under limits.
func trampoline(l sandbox.Rlimits) *sandbox.Trampoline {
	return &sandbox.Trampoline{Self: os.Args[0], Limits: l}
}

func defaultRlimits() sandbox.Rlimits {
	return sandbox.Rlimits{ExtraProcesses: 128, OpenFiles: 1024, FileSizeBytes: 1 << 30, CPUSeconds: 3600, MemoryBytes: 2 << 30}
}

// A command killed by an rlimit names it; one that ran its course, or was
// killed by hand, names none.
func TestShellAttributesResourceLimits(t *testing.T) {
	for _, tc := range []struct {
		name    string
		limits  func(*sandbox.Rlimits)
		command string
		limit   string
	}{
		{"cpu", func(l *sandbox.Rlimits) { l.CPUSeconds = 1 }, "while :; do :; done", "cpu_seconds"},
		{"file size", func(l *sandbox.Rlimits) { l.FileSizeBytes = 4096 }, "exec head -c 100000 /dev/zero > big", "max_file_size_bytes"},
		{"killed by hand", func(l *sandbox.Rlimits) { l.CPUSeconds = 1 }, "kill -9 $$", ""},
		{"clean exit", func(*sandbox.Rlimits) {}, "exit 0", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sh, _ := newTestShell(t, map[string]string{})
			l := defaultRlimits()
			tc.limits(&l)
			sh.cfg.Sandbox = trampoline(l)
			o, err := sh.RunShell(context.Background(), "sh", commandJSON(tc.command))
			if err != nil || !o.Ran {
				t.Fatalf("%+v, %v", o, err)
			}
			if o.ResourceLimit != tc.limit {
				t.Errorf("ResourceLimit = %q, want %q (exit %d, stderr %q)", o.ResourceLimit, tc.limit, o.ExitCode, o.Stderr)
			}
		})
	}
}

// Cancelling the call kills the command's whole process group: a
// grandchild the command left running dies with it.
func TestShellCancelKillsTheProcessGroup(t *testing.T) {
	sh, work := newTestShell(t, map[string]string{})
	sh.cfg.Sandbox = trampoline(defaultRlimits())
	fifo := filepath.Join(work, "ready")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pid := make(chan int, 1)
	go func() {
		defer cancel()
		b, err := os.ReadFile(fifo) // returns once the command wrote the pid and closed it
		if n, perr := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && perr == nil {
			pid <- n
		}
		close(pid)
	}()
	type result struct {
		o   ShellOutcome
		err error
	}
	done := make(chan result, 1)
	go func() {
		o, err := sh.RunShell(ctx, "sh", commandJSON(`sleep 1000 & echo $! > ready; wait`))
		done <- result{o, err}
	}()
	sleeper, ok := <-pid
	if !ok {
		t.Fatal("the command never reported its grandchild")
	}
	pidfd, err := unix.PidfdOpen(sleeper, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(pidfd)
	var r result
	select {
	case r = <-done:
	case <-time.After(time.Minute):
		t.Fatal("RunShell did not return after its context was cancelled")
	}
	if !errors.Is(r.err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", r.err)
	}
	// The pidfd turns readable when the grandchild has exited.
	fds := []unix.PollFd{{Fd: int32(pidfd), Events: unix.POLLIN}}
	if n, err := unix.Poll(fds, int((30 * time.Second).Milliseconds())); err != nil || n != 1 {
		syscall.Kill(sleeper, syscall.SIGKILL)
		t.Fatalf("the grandchild sleep (pid %d) outlived the cancelled call (poll %d, %v)", sleeper, n, err)
	}
}

// A command cannot steer the runtime's own writes out of the workdir:
// neither a logs/ link nor planted log names make the full-output log
// land outside, and a .capsule-home swapped for a link to a real home is
// refused before the next command runs.
func TestShellPlantedLinksAreNotFollowed(t *testing.T) {
	for _, tc := range []struct {
		name, plant        string
		wantRan, wantError bool
		wantText           string
	}{
		{"logs is a link outside", `ln -s "$OUTSIDE" logs`, true, true, "failed to write shell log"},
		{"the log names are planted links", `mkdir -p logs && for ms in 1700000000123 1700000000124; do ln -s "$OUTSIDE/stolen-$ms" logs/shell-$ms.log; done`,
			true, false, "Output truncated. Full output written to logs/shell-1700000000125.log"},
		{"the synthetic home is a link to a real home", `rm -rf .capsule-home && ln -s "$OUTSIDE" .capsule-home`, false, true, "failed to create synthetic home directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			outside := t.TempDir()
			sh, _ := newTestShell(t, map[string]string{"OUTSIDE": outside})
			sh.cfg.Env.BaselineEnv = []string{"OUTSIDE"}
			sh.cfg.Now = func() time.Time { return time.UnixMilli(1700000000123) }
			if o, err := sh.RunShell(context.Background(), "sh", commandJSON(tc.plant)); err != nil || o.ExitCode != 0 {
				t.Fatalf("planting: %+v, %v", o, err)
			}
			o, err := sh.RunShell(context.Background(), "sh", commandJSON(`head -c 20000 /dev/zero; echo x > ~/planted`))
			if err != nil || o.Ran != tc.wantRan || o.IsError != tc.wantError || !strings.Contains(o.Text, tc.wantText) {
				t.Errorf("got ran %v error %v text %.300q (%v), want ran %v error %v and %q", o.Ran, o.IsError, o.Text, err, tc.wantRan, tc.wantError, tc.wantText)
			}
			if entries, _ := os.ReadDir(outside); len(entries) != 0 {
				t.Errorf("the runtime or the command wrote outside the workdir: %v", entries)
			}
		})
	}
}
