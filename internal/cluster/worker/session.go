package worker

import (
	"context"
	"errors"
	"io"
	"io/fs"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/mur-go/mur/internal/agent/observe"
	"github.com/mur-go/mur/internal/base/redact"
	"github.com/mur-go/mur/internal/cluster/queue"
	server "github.com/mur-go/mur/internal/serve/a2a"
	"github.com/mur-go/mur/internal/session"
	"github.com/mur-go/mur/internal/stage"
)

// maxAnswer is the most of out/result.txt a task's record carries.
const maxAnswer = queue.MaxRecord / 2

// outcome is how a task's session ended.
type outcome struct {
	state   a2a.TaskState
	answer  string // out/result.txt on success
	message string // the status message: the error of a failed run
}

// session runs the task in a session of its own, as mur run --task
// would (the lifecycle overridden to take no A2A task of its own), and
// reads its answer back as capsule.Run does: confined, bounded and
// through the session's redactor.
func (w *Worker) session(ctx context.Context, job queue.Job, p *publisher) outcome {
	so := w.o.Session
	so.ManifestPath, so.Task = w.o.ManifestPath, job.Text
	so.Serve = session.ServeOptions{TaskAcceptance: server.AcceptNone, AfterTask: "exit"}
	so.OnStaged = func(s *stage.Staged) { p.setSecrets(s.Secrets()) }
	so.Observer = observe.Tee(so.Observer, observe.Func(func(ev observe.Event) { p.observe(ctx, ev) }))
	res, err := session.Run(ctx, so)
	var secrets *redact.Redactor
	if res.Session != nil {
		secrets = res.Session.Secrets()
	}
	clean := func(s string) string {
		if secrets != nil {
			s = secrets.String(s)
		}
		return w.secrets.String(s)
	}
	switch {
	case err == nil:
		return outcome{state: a2a.TaskStateCompleted, answer: clean(w.result(res.Session))}
	case res.Status == session.StatusCancelled || ctx.Err() != nil:
		return outcome{state: a2a.TaskStateCanceled, message: "task canceled"}
	default:
		return outcome{state: a2a.TaskStateFailed, message: "error: " + clean(err.Error())}
	}
}

// result is the session's out/result.txt, read as the runtime reads
// every file a guest could have written, at most maxAnswer bytes.
func (w *Worker) result(s *stage.Staged) string {
	if s == nil {
		return ""
	}
	f, err := s.Workdir.OpenResult()
	if errors.Is(err, fs.ErrNotExist) {
		return ""
	}
	if err != nil {
		w.log.Warn("not reading out/result.txt", "session", s.ID, "error", err)
		return ""
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxAnswer))
	if err != nil {
		w.log.Warn("reading out/result.txt", "session", s.ID, "error", err)
	}
	return string(b)
}
