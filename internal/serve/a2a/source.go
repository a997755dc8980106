package a2a

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/mur-go/mur/internal/agent"
	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/stage"
)

// TimeoutEnv bounds the wait for an A2A task (a2a-cli.md §2.12).
const TimeoutEnv = "MURMUR_A2A_TIMEOUT_SECS"

const defaultIdleTimeout = 30 * time.Second

// Task sources.
const (
	SourceTaskMD = "task_md"
	SourceA2A    = "a2a"
)

// Source hands the loop its tasks as lifecycle says (a2a-cli.md §4,
// session.md §3.8): a task.md present at launch first, then A2A messages,
// waiting forever in queue+sleep and at most the idle timeout otherwise,
// when one attempt with no task runs before the capsule exits.
type Source struct {
	g       *registry
	task    *stage.TaskFiles
	lc      manifest.Lifecycle
	getenv  func(string) string
	log     *slog.Logger
	timeout *time.Duration

	mu      sync.Mutex
	started bool
	ended   bool
	idle    bool // the timed-out attempt was handed out
	// stale is set when task.md holds a finished task that queue mode
	// deletes between tasks while the next task is already queued: that
	// task overwrites it, and it is deleted only if the source still
	// comes to wait (the queued tasks were canceled) or the session ends.
	// Creating task.md again right after deleting it cost ext4 ~0.3 ms a
	// task under load.
	stale bool
	last  *agent.Task
}

var _ agent.TaskSource = (*Source)(nil)

func (s *Source) sleeps() bool {
	return s.lc.TaskAcceptance == AcceptQueue && s.lc.AfterTask == "sleep"
}

// Next blocks until the loop's next task; ok is false when the session ends.
func (s *Source) Next(ctx context.Context) (agent.Task, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended || s.idle {
		return s.end()
	}
	if !s.started {
		s.started = true
		if size, ok := s.task.Size(); ok {
			return s.taskMD(uint64(size))
		}
		if s.lc.TaskAcceptance == AcceptNone {
			return s.end()
		}
	}
	for {
		wait := time.Duration(-1)
		if !s.sleeps() {
			wait = IdleTimeout(s.getenv)
		}
		rec, ok, err := s.g.next(ctx, wait, s.removeStale)
		if err != nil {
			s.g.close()
			return agent.Task{}, false, err
		}
		if !ok {
			s.log.Warn("no A2A task arrived; running input.txt if the workdir has one, else ending",
				"waited", wait.String(), "hint", "set "+TimeoutEnv+" to wait longer, or use lifecycle queue+sleep")
			s.g.close()
			s.idle = true
			return agent.Task{Source: SourceA2A}, true, nil
		}
		write := s.task.Write
		if s.stale {
			write = s.task.Replace
		}
		s.stale = false
		if err := write(rec.text); err != nil {
			s.g.finish(rec, rec.statusEvent(a2a.TaskStateFailed, fmt.Sprintf("could not write task.md: %v", err)), nil)
			s.log.Error("A2A task failed before it ran: task.md could not be written", "task_id", rec.id, "error", err)
			if s.afterTask() {
				return s.end()
			}
			continue
		}
		run := &taskRun{g: s.g, rec: rec, inputTimeout: s.timeout}
		t := agent.Task{ID: string(rec.id), ContextID: rec.contextID, Source: SourceA2A,
			InputBytes: uint64(len(rec.text)), MessageID: rec.messageID, Traceparent: rec.trace, Events: run, IO: run}
		s.last = &t
		return t, true, nil
	}
}

// taskMD is the task.md present at launch (source task_md).
func (s *Source) taskMD(size uint64) (agent.Task, bool, error) {
	id, err := newID("tsk_")
	if err != nil {
		return agent.Task{}, false, err
	}
	ctxID, err := newID("ctx_")
	if err != nil {
		return agent.Task{}, false, err
	}
	t := agent.Task{ID: id, ContextID: ctxID, Source: SourceTaskMD, InputBytes: size}
	s.last = &t
	return t, true, nil
}

func (s *Source) end() (agent.Task, bool, error) {
	s.ended = true
	s.g.close()
	return agent.Task{}, false, nil
}

// Done records how a task ended and decides, per lifecycle, whether the
// session goes on.
func (s *Source) Done(ctx context.Context, t agent.Task, r agent.TaskResult) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t.Source == SourceA2A && t.ID != "" {
		s.finishA2A(t, r)
	}
	if t.ID == "" {
		return // the timed-out attempt; Next ends the session
	}
	failed := r.Err != nil || r.ExitStatus != "ok"
	switch {
	case t.Source == SourceTaskMD && (failed || s.lc.TaskAcceptance != AcceptQueue):
		s.ended = true
	case t.Source == SourceTaskMD:
		s.clearTask()
	case s.afterTask():
		s.ended = true
	}
}

// afterTask reports whether the session stops after an A2A task; in
// queue+sleep it clears task.md and goes on.
func (s *Source) afterTask() bool {
	if !s.sleeps() {
		return true
	}
	s.clearTask()
	return false
}

// clearTask deletes task.md between queued tasks, unless the next task
// is already waiting to overwrite it.
func (s *Source) clearTask() {
	s.stale = true
	if !s.g.pending() {
		s.removeStale()
	}
}

// removeStale deletes task.md if it holds a finished task.
func (s *Source) removeStale() {
	if !s.stale {
		return
	}
	s.stale = false
	if err := s.task.Remove(); err != nil {
		s.log.Warn("could not delete task.md between tasks", "error", err)
	}
}

// close ends the source once the loop returned: a finished task's
// task.md that no wait cleared goes too.
func (s *Source) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.removeStale()
	if err := s.task.Close(); err != nil {
		s.log.Warn("closing the workdir", "error", err)
	}
}

// finishA2A ends the registry's task if the loop's events did not already.
func (s *Source) finishA2A(t agent.Task, r agent.TaskResult) {
	run, ok := t.Events.(*taskRun)
	if !ok {
		return
	}
	rec := run.rec
	s.g.mu.Lock()
	cancelled, failure, ended := rec.cancelReq, rec.failure, rec.terminal()
	s.g.mu.Unlock()
	switch {
	case ended: // the loop's completed status (or a cancel of a queued task) ended it
		s.g.finish(rec, nil, nil)
	case cancelled || r.ExitStatus == agent.ExitCancelled: // CancelTask, or the capsule stopping
		s.g.finish(rec, rec.statusEvent(a2a.TaskStateCanceled, "canceled"), nil)
	case failure != "" || r.Err != nil || r.ExitStatus != "ok":
		msg := r.Text
		if msg == "" && r.Err != nil {
			msg = "error: " + diag.Render(r.Err)
		}
		if msg == "" {
			msg = failure
		}
		s.g.finish(rec, rec.statusEvent(a2a.TaskStateFailed, msg), nil)
	default:
		text := r.Text
		run.Status(agent.StatusEvent{State: "completed", Message: "session ended", Response: &text, Final: true})
		s.g.finish(rec, rec.statusEvent(a2a.TaskStateCompleted, text), nil)
	}
}

// IdleTimeout is how long a session without a task waits for one over
// A2A, read from MURMUR_A2A_TIMEOUT_SECS at each wait: unset or
// unparsable is 30 s, 0 is no wait. (queue+sleep waits for ever.)
func IdleTimeout(getenv func(string) string) time.Duration {
	v := strings.TrimSpace(getenv(TimeoutEnv))
	n, err := strconv.ParseUint(v, 10, 32)
	if err != nil {
		return defaultIdleTimeout
	}
	return time.Duration(n) * time.Second
}
