package session

import (
	"context"
	"net"

	"github.com/mur-go/mur/internal/agent"
	"github.com/mur-go/mur/internal/launch"
	"github.com/mur-go/mur/internal/serve/a2a"
	"github.com/mur-go/mur/internal/stage"
)

// listen binds the agent capsule's A2A port before its guests are built,
// so they are told the capsule URL (MURMUR_CAPSULE_URL), as in Murmur.
func listen(ctx context.Context, s *stage.Staged, lo launch.Options, o Options) (net.Listener, string, error) {
	return a2a.Listen(ctx, serverOptions(s, lo, o))
}

// serve runs an agent capsule's session loop behind its A2A server
// (session.md §3.1) on ln, the port listen bound: MURMUR.md is rewritten
// with the capsule URL, and the loop takes its tasks from the server's
// source, which hands over task.md first and then A2A messages as the
// lifecycle allows. The server closes ln.
func serve(ctx context.Context, s *stage.Staged, lo launch.Options, o Options, ln net.Listener, run func(context.Context, agent.TaskSource) error) error {
	so := serverOptions(s, lo, o)
	so.Listener = ln
	so.OnListen = func(url string) {
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
	}
	so.Run = run
	return a2a.Serve(ctx, so)
}

// serverOptions are the A2A server's options for the staged capsule.
func serverOptions(s *stage.Staged, lo launch.Options, o Options) a2a.ServerOptions {
	c := s.Capsule
	lc := c.Lifecycle
	if v := o.Serve.TaskAcceptance; v != "" {
		lc.TaskAcceptance = v
	}
	if v := o.Serve.AfterTask; v != "" {
		lc.AfterTask = v
	}
	var port uint16
	if c.InternalPort != nil {
		port = *c.InternalPort
	}
	return a2a.ServerOptions{
		SessionID:       s.ID,
		Workdir:         s.AccessibleDir,
		Lifecycle:       lc,
		Card:            cardInfo(s),
		Bind:            o.Serve.Bind,
		Port:            port,
		Token:           o.Serve.Token,
		InsecureNoToken: o.Serve.InsecureNoToken,
		Getenv:          o.Getenv,
		Log:             lo.Log,
		RunningDir:      o.Serve.RunningDir,
	}
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
