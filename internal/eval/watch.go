package eval

import (
	"sync"

	"github.com/mur-go/mur/internal/agent/observe"
)

// watcher is a case's observe.Observer: it keeps from the agent loop's
// account of the run what the scorers judge, as the run reports it, so
// nothing a guest leaves in the session directory changes a score.
type watcher struct {
	mu sync.Mutex
	o  Observation
	// last is the last task's exit status ("" before any ended).
	last string
}

var _ observe.Observer = (*watcher)(nil)

// Observe counts what Murmur's eval hook hears of: each task's totals at
// its end and every tool call that ran to its end (on-tool-call fires
// for those; a call a cancellation cut short fires nothing).
func (w *watcher) Observe(e observe.Event) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch e.Kind {
	case observe.ToolEnd:
		if !e.Cancelled {
			w.o.Tools = append(w.o.Tools, e.Name)
		}
	case observe.TaskEnd:
		w.o.Turns += e.Turns
		w.o.InputTokens += e.InputTokens
		w.o.OutputTokens += e.OutputTokens
		w.last = e.Status
	}
}

// observation is what the watcher saw, ending with status: "ok" for a
// run that succeeded, else the failing task's status, else failed (a
// run that failed before or after its task).
func (w *watcher) observation(runOK bool, status string) Observation {
	w.mu.Lock()
	defer w.mu.Unlock()
	o := w.o
	o.Tools = append([]string(nil), w.o.Tools...)
	switch {
	case runOK:
		o.ExitStatus = "ok"
	case w.last != "" && w.last != "ok":
		o.ExitStatus = w.last
	default:
		o.ExitStatus = status
	}
	return o
}
