package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"regexp"
	"runtime/debug"
	"slices"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mur-go/mur/internal/tools"
)

// maxTools bounds the tools one server may list: a list is read whole
// and every entry goes to the model.
const maxTools = 1000

// maxRefreshRounds bounds the reads of one refresh: a server announcing
// changes without end holds up a request for a few reads at most.
const maxRefreshRounds = 4

// toolName is what model APIs accept as a tool's name; a server's tool
// whose mcp__<server>__<tool> name is not one is left out of the list.
var toolName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// server is one started MCP server: its client session, its process when
// it is local, and its tool list as last read.
type server struct {
	name   string
	parent *Servers
	log    *slog.Logger
	proc   *process // nil for a remote server

	mu sync.Mutex
	// session is set under mu once connected: a server may announce a
	// changed list before Connect has returned, on the connection's own
	// goroutine, and the first read after connect lists everything.
	session *sdk.ClientSession
	tools   []*sdk.Tool
	// refreshing is closed when the refresh under way is done (nil when
	// none is); again asks it to read the list once more, for a change
	// announced while it read.
	refreshing chan struct{}
	again      bool
}

// connect starts the transport (a local server's process bound to life)
// and the MCP session, within ctx.
func (sv *server) connect(ctx, life context.Context, c Server) error {
	var transport sdk.Transport
	switch {
	case c.Local != nil:
		p, t, err := startLocal(life, c.Local, sv.log)
		if err != nil {
			return err
		}
		sv.proc, transport = p, t
	case c.Remote != nil:
		t, err := c.Remote.transport(sv.log)
		if err != nil {
			return err
		}
		transport = t
	default:
		return fmt.Errorf("neither a command nor a url")
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "mur", Version: clientVersion()}, &sdk.ClientOptions{
		// No roots, sampling or elicitation: a server gets nothing of the
		// session but the calls the model makes. (A server told of roots
		// could take them as its allowed directories.)
		Capabilities:           &sdk.ClientCapabilities{},
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { sv.refresh() },
	})
	session, err := client.Connect(ctx, transport, nil)
	if err != nil {
		return err
	}
	sv.mu.Lock()
	sv.session = session
	sv.mu.Unlock()
	return nil
}

// client is the connected session, nil before connect returned.
func (sv *server) client() *sdk.ClientSession {
	sv.mu.Lock()
	defer sv.mu.Unlock()
	return sv.session
}

// list reads the server's whole tool list, at most maxTools, and keeps
// the tools the model can be offered: a name model APIs accept once
// prefixed, listed once.
func (sv *server) list(ctx context.Context) ([]*sdk.Tool, error) {
	session := sv.client()
	if session == nil {
		return nil, fmt.Errorf("not connected")
	}
	var out []*sdk.Tool
	n := 0
	for t, err := range session.Tools(ctx, nil) {
		if err != nil {
			return nil, err
		}
		if n++; n > maxTools {
			return nil, fmt.Errorf("it lists more than %d tools", maxTools)
		}
		full := sv.fullName(t.Name)
		switch {
		case !toolName.MatchString(full):
			sv.log.Warn("leaving out an MCP tool whose name model APIs refuse", "tool", t.Name, "as", full)
		case slices.ContainsFunc(out, func(o *sdk.Tool) bool { return o.Name == t.Name }):
			sv.log.Warn("leaving out an MCP tool listed twice", "tool", t.Name)
		default:
			out = append(out, t)
		}
	}
	return out, nil
}

// fullName is what the model calls tool: mcp__<server>__<tool>.
func (sv *server) fullName(tool string) string { return tools.MCPPrefix + sv.name + "__" + tool }

// refresh reads the list again after notifications/tools/list_changed,
// in the background: the handler must not hold up the connection's other
// messages. A refresh that fails keeps the last list.
func (sv *server) refresh() {
	sv.mu.Lock()
	defer sv.mu.Unlock()
	if sv.session == nil {
		return // the list read once connected has the change
	}
	if sv.refreshing != nil {
		sv.again = true
		return
	}
	done := make(chan struct{})
	sv.refreshing = done
	go func() {
		defer close(done)
		for round := 1; ; round++ {
			ctx, cancel := context.WithTimeout(sv.parent.ctx, sv.parent.cfg.Deadline)
			list, err := sv.list(ctx)
			cancel()
			sv.mu.Lock()
			if err == nil {
				sv.tools = list
			}
			again := sv.again
			sv.again = false
			last := !again || round == maxRefreshRounds
			if last {
				sv.refreshing = nil
			}
			sv.mu.Unlock()
			if err != nil {
				sv.log.Warn("reading the MCP server's changed tool list; keeping the last one", "err", err)
			} else {
				sv.parent.changed()
			}
			if last {
				if again {
					sv.refresh() // a new refresh, which the next request waits for
				}
				return
			}
		}
	}()
}

// settled waits for the refresh under way, if any, or for ctx to end.
func (sv *server) settled(ctx context.Context) {
	sv.mu.Lock()
	done := sv.refreshing
	sv.mu.Unlock()
	if done == nil {
		return
	}
	select {
	case <-done:
	case <-ctx.Done():
	}
}

// listed is the server's tools as the model sees them.
func (sv *server) listed() []tools.Listed {
	sv.mu.Lock()
	defer sv.mu.Unlock()
	out := make([]tools.Listed, 0, len(sv.tools))
	for _, t := range sv.tools {
		schema := `{"type":"object"}`
		if t.InputSchema != nil {
			if b, err := json.Marshal(t.InputSchema); err == nil && string(b) != "null" {
				schema = string(b)
			}
		}
		out = append(out, tools.Listed{Name: sv.fullName(t.Name), Description: t.Description, InputSchema: schema})
	}
	return out
}

// has reports whether the server lists tool now.
func (sv *server) has(tool string) bool {
	sv.mu.Lock()
	defer sv.mu.Unlock()
	return slices.ContainsFunc(sv.tools, func(t *sdk.Tool) bool { return t.Name == tool })
}

// close ends the session and, for a local server, its process.
func (sv *server) close() {
	if session := sv.client(); session != nil {
		if err := session.Close(); err != nil {
			sv.log.Debug("closing the MCP session", "err", err)
		}
	}
	if sv.proc != nil {
		sv.proc.stop()
	}
}

// explain adds to err what a local server said on stderr before it
// failed.
func (sv *server) explain(err error) error {
	if sv.proc == nil {
		return err
	}
	if tail := sv.proc.stderrTail(); tail != "" {
		return fmt.Errorf("%w (its stderr ends: %s)", err, tail)
	}
	return err
}

// clientVersion is the running mur's version, the client's in the
// initialize request.
func clientVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "(devel)"
}
