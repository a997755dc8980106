package cli

import (
	"log/slog"
	"time"

	"github.com/mur-go/mur/internal/agent/observe"
)

// progressFor decides whether mur run shows its progress on stderr, and
// how: --progress always, --quiet and --json never unless --progress,
// else when stderr is a terminal. tty redraws a status line: only on a
// terminal that understands erasing a line, never on a pipe or a file.
func progressFor(o runOptions, stderrTTY, redraw bool) (on, tty bool) {
	switch {
	case o.progress:
		on = true
	case o.quiet, o.json:
		on = false
	default:
		on = stderrTTY
	}
	return on, on && stderrTTY && redraw
}

// startProgress starts the run's progress when progressFor says so: the
// runner's stderr and logger (and stdout, when it is a terminal too,
// the screen they share) then write in turn with it. Nil when off.
func (r *runner) startProgress() *runProgress {
	fd, stderrTTY := terminal(r.app.stderr)
	on, tty := progressFor(r.opts, stderrTTY, redraws())
	if !on {
		return nil
	}
	p := newRunProgress(r.app.stderr, tty, termWidth(fd), time.Now)
	r.stderr = p.pass(r.app.stderr)
	r.log = slog.New(slog.NewTextHandler(r.stderr, &slog.HandlerOptions{Level: &r.app.logLevel}))
	if _, ok := terminal(r.app.stdout); ok {
		r.stdout = p.pass(r.app.stdout)
	}
	r.info = r.stdout
	if r.opts.quiet {
		r.info = r.stderr
	}
	return p
}

// observer is p as the run's observer: none when the progress is off
// (a nil *runProgress is not a nil observe.Observer).
func observer(p *runProgress) observe.Observer {
	if p == nil {
		return nil
	}
	return p
}
