package session

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mur-go/mur/internal/agent"
	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/launch"
	"github.com/mur-go/mur/internal/serve/a2a"
	"github.com/mur-go/mur/internal/stage"
)

// listening is an agent capsule's A2A side made ready before staging:
// its lifecycle after the overrides, checked, and its port bound, so a
// bad override, an exposed bind without a token or a taken
// internal_port is refused before a session directory exists.
type listening struct {
	lc manifest.Lifecycle
	ln net.Listener
}

// Check refuses lifecycle overrides and a bind address no session can be
// served with (a2a-cli.md §4: E-IO-003), marked ErrOption; a caller can
// check them before it even reads the manifest.
func (o ServeOptions) Check() error {
	for _, f := range []struct {
		flag, value string
		allowed     []string
	}{
		{"--lifecycle-task-acceptance", o.TaskAcceptance, []string{a2a.AcceptNone, a2a.AcceptSingle, a2a.AcceptQueue}},
		{"--lifecycle-after-task", o.AfterTask, []string{"exit", "sleep"}},
	} {
		if f.value != "" && !slices.Contains(f.allowed, f.value) {
			return diag.Mark(diag.New(a2a.CodeIO, "%s must be one of: %s; got '%s'", f.flag, strings.Join(f.allowed, ", "), f.value).
				WithHint("leave it out to keep the manifest's lifecycle block"), ErrOption)
		}
	}
	if err := a2a.CheckExposure(o.Bind, o.Token, o.InsecureNoToken); err != nil {
		return diag.Mark(err, ErrOption)
	}
	return nil
}

// listen checks what serving c needs and binds its port.
func listen(ctx context.Context, c *manifest.Capsule, o ServeOptions) (*listening, error) {
	if err := o.Check(); err != nil {
		return nil, err
	}
	lc := c.Lifecycle
	if o.TaskAcceptance != "" {
		lc.TaskAcceptance = o.TaskAcceptance
	}
	if o.AfterTask != "" {
		lc.AfterTask = o.AfterTask
	}
	if o.Tasks != nil {
		lc.TaskAcceptance = a2a.AcceptNone
	}
	if err := a2a.CheckLifecycle(lc); err != nil {
		return nil, err
	}
	var port uint16
	if c.InternalPort != nil {
		port = *c.InternalPort
	}
	ln, err := a2a.Listen(ctx, o.Bind, port)
	if err != nil {
		return nil, err
	}
	return &listening{lc: lc, ln: ln}, nil
}

// close releases the port of a session that never came to serve it.
func (l *listening) close() {
	if l != nil {
		l.ln.Close()
	}
}

// serve runs an agent capsule's session loop behind its A2A server
// (session.md §3.1) on the port listen bound: MURMUR.md is rewritten
// with the capsule URL, and the loop takes its tasks from the server's
// source, which hands over task.md first and then A2A messages as the
// lifecycle allows.
func serve(ctx context.Context, s *stage.Staged, l *listening, lo launch.Options, o Options, run func(context.Context, agent.TaskSource) error) error {
	return a2a.Serve(ctx, a2a.ServerOptions{
		SessionID:       s.ID,
		Workdir:         s.AccessibleDir,
		Lifecycle:       l.lc,
		Card:            cardInfo(s),
		Bind:            o.Serve.Bind,
		Listener:        l.ln,
		Token:           o.Serve.Token,
		InsecureNoToken: o.Serve.InsecureNoToken,
		Getenv:          o.Getenv,
		Log:             lo.Log,
		RunningDir:      o.Serve.RunningDir,
		OnListen: func(url string) {
			if err := s.WriteMurmurMD(url); err != nil {
				lo.Log.Warn("rewriting MURMUR.md with the capsule URL", "err", err)
			}
			// Staging and compiling left tens of MB of garbage the runtime
			// would hand back to the OS only slowly, and mapped most of the
			// binary; a capsule that now waits for tasks should not sit on
			// either. Before the URL is announced, so whoever waits for it
			// sees the capsule as it idles.
			releaseMemory(lo.Engine, lo.Log)
			if o.Serve.OnURL != nil {
				o.Serve.OnURL(url)
			}
			if wait, ok := waitsForTask(s, l.lc, o.Getenv); ok && o.Serve.OnWaiting != nil {
				o.Serve.OnWaiting(url, wait)
			}
		},
		Run: run,
	})
}

// waitsForTask reports whether a session starts by waiting for an A2A
// task, and for how long (negative: for ever): it has no task.md and
// its lifecycle takes tasks, with a wait that is not zero.
func waitsForTask(s *stage.Staged, lc manifest.Lifecycle, getenv func(string) string) (time.Duration, bool) {
	if lc.TaskAcceptance == a2a.AcceptNone {
		return 0, false
	}
	if fi, err := os.Lstat(filepath.Join(s.AccessibleDir, stage.TaskFile)); err == nil && fi.Mode().IsRegular() {
		return 0, false
	}
	if lc.TaskAcceptance == a2a.AcceptQueue && lc.AfterTask == "sleep" {
		return -1, true
	}
	wait := a2a.IdleTimeout(getenv)
	return wait, wait > 0
}

// cardInfo is what the agent cards say about the capsule.
func cardInfo(s *stage.Staged) a2a.CardInfo {
	c := s.Capsule
	info := a2a.CardInfo{Name: c.Name, Version: c.Version,
		Shell: len(c.Capabilities.ShellAllow()) > 0}
	if c.Capabilities != nil && c.Capabilities.Network != nil {
		info.Network = len(c.Capabilities.Network.Allow) > 0
	}
	for _, a := range s.Artifacts {
		if a.Role == stage.RoleTool || a.Role == stage.RoleSkill {
			info.Tools = append(info.Tools, a.Name)
		}
	}
	return info
}
