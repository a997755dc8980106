package sandbox

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

const (
	// reaperReady is what a reaper writes on its ack pipe once it runs.
	reaperReady = "ready"
	// reaperAckTimeout bounds how long the runtime waits for that.
	reaperAckTimeout = 10 * time.Second
	// reaperStopTimeout bounds how long Close waits for the reaper to
	// see its lifeline close and exit.
	reaperStopTimeout = 5 * time.Second
	// The reaper's descriptors: its lifeline, its ack pipe, then the
	// leaves' locks.
	reaperLifeFD, reaperAckFD = 3, 4
)

// reaper is the runtime's half of a scope's reaper: a re-exec of the
// runtime's binary in ReaperMode, in a session of its own (no terminal
// signal reaches it) and outside the scope, holding the read end of a
// pipe whose write end only this process holds (close-on-exec, so no
// child inherits it). Any end of this process, a SIGKILL or an OOM kill
// included, closes it; the reaper then kills every process in the scope
// and removes its leaves. It also holds the leaves' locks, so the sweep
// leaves the scope to it while it lives. A reaper that dies before the
// session ends (killed by a tool of the same uid) is started again.
type reaper struct {
	self   string
	leaves []string
	locks  []*os.File
	log    *slog.Logger

	mu sync.Mutex
	// life is the write end of the running reaper's lifeline, exited
	// closed when that reaper has exited; life is nil once stopped.
	life   *os.File
	exited chan struct{}
}

// startReaper starts the scope's reaper and returns once it runs.
func startReaper(self string, leaves []string, locks []*os.File, log *slog.Logger) (*reaper, error) {
	if self == "" {
		return nil, errors.New("no binary to run the scope's reaper with")
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	r := &reaper{self: self, leaves: leaves, locks: locks, log: log}
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.spawnLocked(); err != nil {
		return nil, err
	}
	return r, nil
}

func (r *reaper) spawnLocked() error {
	lifeR, lifeW, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("the reaper's lifeline: %w", err)
	}
	ackR, ackW, err := os.Pipe()
	if err != nil {
		lifeR.Close()
		lifeW.Close()
		return fmt.Errorf("the reaper's ack pipe: %w", err)
	}
	defer ackR.Close()
	cmd := exec.Command(r.self, append([]string{ReaperMode}, r.leaves...)...)
	// Nothing of the runtime's: no environment (it holds the user's
	// keys), no working directory a mount could be held busy by.
	cmd.Env, cmd.Dir = []string{}, "/"
	cmd.ExtraFiles = append([]*os.File{lifeR, ackW}, r.locks...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	err = cmd.Start()
	lifeR.Close()
	ackW.Close()
	if err != nil {
		lifeW.Close()
		return fmt.Errorf("starting the scope's reaper %s: %w", r.self, err)
	}
	_ = ackR.SetReadDeadline(time.Now().Add(reaperAckTimeout))
	ack, _ := io.ReadAll(io.LimitReader(ackR, int64(len(reaperReady))+1))
	if string(ack) != reaperReady {
		lifeW.Close()
		cmd.Process.Kill()
		cmd.Wait()
		return fmt.Errorf("the scope's reaper (%s %s) did not start", r.self, ReaperMode)
	}
	exited := make(chan struct{})
	r.life, r.exited = lifeW, exited
	go r.watch(cmd, lifeW, exited)
	return nil
}

// watch reaps the reaper and, if it died while the session lives,
// starts another.
func (r *reaper) watch(cmd *exec.Cmd, life *os.File, exited chan struct{}) {
	err := cmd.Wait()
	close(exited)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.life != life {
		return // stopped: this exit was asked for
	}
	life.Close()
	r.life = nil
	r.log.Warn("the session's cgroup scope reaper ended before the session; starting it again", "status", err)
	if err := r.spawnLocked(); err != nil {
		r.log.Error("restarting the cgroup scope reaper: the scope is left to the next run's sweep if mur is killed", "err", err)
	}
}

// stop closes the lifeline and waits (bounded) for the reaper to exit:
// the scope is already gone, so it finds nothing to do.
func (r *reaper) stop() {
	if r == nil {
		return
	}
	r.mu.Lock()
	life, exited := r.life, r.exited
	r.life = nil
	r.mu.Unlock()
	if life == nil {
		return
	}
	life.Close()
	select {
	case <-exited:
	case <-time.After(reaperStopTimeout):
	}
}

// reaperMain is the reaper: it says it runs, waits for EOF on its
// lifeline (the runtime is gone or done) and kills and removes the scope
// whose leaves are args. A leaf is touched only if it is the very
// directory whose lock the runtime handed over at the same position, so
// a hand-typed invocation (or a tool that rewrote a leaf's record) can
// make it remove nothing else, or spare nothing; without its lifeline it
// does nothing.
func reaperMain(args []string) {
	_ = unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
	var st unix.Stat_t
	if unix.Fstat(reaperLifeFD, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFIFO {
		fmt.Fprintf(os.Stderr, "mur: %s is started by mur for a session's cgroup scope, never by hand\n", ReaperMode)
		os.Exit(2)
	}
	unix.CloseOnExec(reaperLifeFD)
	unix.CloseOnExec(reaperAckFD)
	_, _ = unix.Write(reaperAckFD, []byte(reaperReady))
	unix.Close(reaperAckFD)
	buf := make([]byte, 64)
	for {
		// Only EOF (or an error no later read cures) ends the wait.
		n, err := unix.Read(reaperLifeFD, buf)
		if err != unix.EINTR && (err != nil || n == 0) {
			break
		}
	}
	var leaves []string
	for i, l := range args {
		if heldLeaf(reaperAckFD+1+i, l) {
			leaves = append(leaves, l)
		}
	}
	if err := drainScope(leaves, cgroupDrainTimeout); err != nil {
		os.Exit(1)
	}
	os.Exit(0)
}

// heldLeaf says whether descriptor fd is the cgroup directory at path.
func heldLeaf(fd int, path string) bool {
	var held, named unix.Stat_t
	var fs unix.Statfs_t
	if unix.Fstat(fd, &held) != nil || unix.Lstat(path, &named) != nil || unix.Fstatfs(fd, &fs) != nil {
		return false
	}
	return held.Mode&unix.S_IFMT == unix.S_IFDIR && held.Dev == named.Dev && held.Ino == named.Ino &&
		(fs.Type == unix.CGROUP_SUPER_MAGIC || fs.Type == unix.CGROUP2_SUPER_MAGIC)
}
