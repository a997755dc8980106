package worker

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/mur-go/mur/internal/agent"
	server "github.com/mur-go/mur/internal/serve/a2a"
	"github.com/mur-go/mur/internal/session"
	"github.com/mur-go/mur/internal/stage"
)

// restartDelay is how long a session that ended on its own waits before
// the worker stages it again, so one that fails at once does not spin.
const restartDelay = time.Second

// sessions keeps Concurrency staged sessions of the capsule, each taking
// the claimed tasks from jobs: one after another, as a served mur run
// takes its queue's, when the capsule's lifecycle is queue+sleep (a task
// costs the loop, not staging); else one task each, the next session
// staged as soon as one ends. It returns once every session is ready to
// take a task, or with the error of one that could not start; gone
// closes once all have ended (jobs closed, or ctx done).
func (w *Worker) sessions(ctx context.Context) (gone <-chan struct{}, err error) {
	var wg sync.WaitGroup
	ready := make(chan error, w.o.Concurrency)
	startCtx, abort := context.WithCancel(ctx)
	for range w.o.Concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.keepSession(startCtx, ready)
		}()
	}
	for range w.o.Concurrency {
		if err = <-ready; err != nil {
			abort()
			wg.Wait()
			return nil, err
		}
	}
	ended := make(chan struct{})
	go func() {
		wg.Wait()
		abort()
		close(ended)
	}()
	return ended, nil
}

// keepSession runs one session until the worker stops, staging a new one
// when it ends on its own; ready hears once whether the first one
// started.
func (w *Worker) keepSession(ctx context.Context, ready chan<- error) {
	first := true
	for {
		src := &source{w: w, ready: make(chan struct{}), single: !w.sharesSessions()}
		so := w.o.Session
		so.ManifestPath, so.Task = w.o.ManifestPath, ""
		so.Serve = session.ServeOptions{Tasks: src}
		so.OnStaged = func(s *stage.Staged) { src.staged = s }
		done := make(chan error, 1)
		go func() {
			_, err := session.Run(ctx, so)
			done <- err
		}()
		var err error
		select {
		case <-src.ready:
			if first {
				ready <- nil
			}
			err = <-done
		case err = <-done:
			if first {
				if err == nil {
					err = errors.New("the capsule's session ended before it took a task")
				}
				ready <- err
				return
			}
		}
		first = false
		src.close()
		if ctx.Err() != nil || src.closed() {
			return
		}
		if src.spent() {
			continue // its one task done: the next task gets a new session
		}
		w.log.Warn("a session of the capsule ended; staging another", "error", w.secrets.String(errString(err)))
		select {
		case <-time.After(restartDelay):
		case <-ctx.Done():
			return
		}
	}
}

// sharesSessions reports whether the capsule's tasks may share a
// session: its lifecycle is queue+sleep, under which mur run too runs
// one task after another in one session. Any other lifecycle says one
// task per session, and each task gets a session of its own, staged
// while the previous one runs.
func (w *Worker) sharesSessions() bool {
	lc := w.o.Capsule.Lifecycle
	return lc.TaskAcceptance == server.AcceptQueue && lc.AfterTask == "sleep"
}

func errString(err error) string {
	if err == nil {
		return "none"
	}
	return err.Error()
}

// source is one session's task source: the tasks the worker claimed,
// written to the session's task.md one at a time.
type source struct {
	w      *Worker
	staged *stage.Staged
	ready  chan struct{}
	once   sync.Once
	task   *stage.TaskFiles
	// single: the session takes one task (the capsule's lifecycle is not
	// queue+sleep), and is spent once it ran it.
	single bool
	mu     sync.Mutex
	ended  bool // jobs closed: the worker drained
	used   bool // a single session's task was handed out
}

var _ agent.TaskSource = (*source)(nil)

// Next hands the loop the next claimed task; ok is false once the worker
// has drained.
func (s *source) Next(ctx context.Context) (agent.Task, bool, error) {
	var err error
	s.once.Do(func() {
		if s.task, err = stage.OpenTaskFiles(s.staged.AccessibleDir); err == nil {
			close(s.ready)
		}
	})
	if err != nil || s.task == nil {
		return agent.Task{}, false, errors.Join(err, errors.New("the session's workdir could not be opened for task.md"))
	}
	s.mu.Lock()
	used := s.single && s.used
	s.mu.Unlock()
	if used {
		return agent.Task{}, false, nil
	}
	for {
		var d *delivery
		var ok bool
		select {
		case d, ok = <-s.w.jobs:
		case <-ctx.Done():
			return agent.Task{}, false, ctx.Err()
		}
		if !ok {
			s.mu.Lock()
			s.ended = true
			s.mu.Unlock()
			return agent.Task{}, false, nil
		}
		// Replace, not write: a link a guest planted at task.md is
		// replaced, never followed.
		if err := s.task.Replace(d.job.Text); err != nil {
			s.w.finish(ctx, d, outcome{state: failedState, message: "error: could not write task.md: " + err.Error()})
			continue
		}
		d.p.setSecrets(s.staged.Secrets())
		s.mu.Lock()
		s.used = true
		s.mu.Unlock()
		return agent.Task{ID: d.job.TaskID, ContextID: d.job.ContextID, Source: server.SourceA2A,
			InputBytes: uint64(len(d.job.Text)), Traceparent: d.job.Traceparent, Events: d, IO: d}, true, nil
	}
}

// Done records how the task ended and clears task.md for the next.
func (s *source) Done(ctx context.Context, t agent.Task, r agent.TaskResult) {
	d, ok := t.Events.(*delivery)
	if !ok {
		return
	}
	if err := s.task.Remove(); err != nil {
		s.w.log.Warn("could not delete task.md between tasks", "error", err)
	}
	s.w.finish(ctx, d, d.outcome(r))
}

func (s *source) close() {
	if s.task != nil {
		if err := s.task.Close(); err != nil {
			s.w.log.Warn("closing the workdir", "error", err)
		}
	}
}

func (s *source) spent() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.single && s.used
}

func (s *source) closed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ended
}
