package mcp

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mur-go/mur/internal/tools"
)

// Config is what a session's MCP servers are started with.
type Config struct {
	Servers []Server
	// Deadline bounds each tool call, and each server's start and tool
	// list: the capsule's deadline. 0 means DefaultDeadline.
	Deadline time.Duration
	// Log receives the servers' diagnostics (a local server's stderr at
	// debug level); nil discards them.
	Log *slog.Logger
}

// DefaultDeadline is the deadline of a Config that sets none.
const DefaultDeadline = 600 * time.Second

// Server is one mcp.servers entry: exactly one of Local and Remote.
type Server struct {
	Name   string
	Local  *Local
	Remote *Remote
}

// Servers are a session's MCP servers: New describes them, Start starts
// and lists them, Close stops them. Started, they are the session's
// tools.Catalog.
type Servers struct {
	cfg Config
	// ctx lives from Start to Close: a local server's process is bound
	// to it.
	ctx    context.Context
	cancel context.CancelFunc

	mu      sync.Mutex
	version uint64
	servers []*server
}

var _ tools.Catalog = (*Servers)(nil)

// New returns the servers of cfg, none started.
func New(cfg Config) *Servers {
	if cfg.Deadline <= 0 {
		cfg.Deadline = DefaultDeadline
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	return &Servers{cfg: cfg}
}

// Start starts every server at once and reads its tool list; it returns
// once all have answered. A server that fails to start or answer within
// the deadline is an error naming it (CodeServer), and every other
// server is stopped again. Start may be called once.
func (s *Servers) Start(ctx context.Context) error {
	s.ctx, s.cancel = context.WithCancel(ctx)
	started := make([]*server, len(s.cfg.Servers))
	errs := make([]error, len(s.cfg.Servers))
	var wg sync.WaitGroup
	for i, c := range s.cfg.Servers {
		wg.Go(func() { started[i], errs[i] = s.start(c) })
	}
	wg.Wait()
	s.mu.Lock()
	for _, sv := range started {
		if sv != nil {
			s.servers = append(s.servers, sv)
		}
	}
	s.version++
	s.mu.Unlock()
	if err := errors.Join(errs...); err != nil {
		s.Close()
		return err
	}
	return nil
}

// start connects to one server and reads its tools.
func (s *Servers) start(c Server) (*server, error) {
	ctx, cancel := context.WithTimeout(s.ctx, s.cfg.Deadline)
	defer cancel()
	sv := &server{name: c.Name, parent: s, log: s.cfg.Log.With("mcp_server", c.Name)}
	if err := sv.connect(ctx, s.ctx, c); err != nil {
		sv.close()
		return nil, serverError(c.Name, "did not start", sv.explain(err))
	}
	list, err := sv.list(ctx)
	if err != nil {
		sv.close()
		return nil, serverError(c.Name, "did not list its tools", sv.explain(err))
	}
	sv.tools = list
	return sv, nil
}

// Close stops every server: a session's MCP connections are closed and
// its local servers' processes are gone when it returns. It is safe to
// call more than once.
func (s *Servers) Close() error {
	s.mu.Lock()
	servers := s.servers
	s.servers = nil
	s.mu.Unlock()
	var wg sync.WaitGroup
	for _, sv := range servers {
		wg.Go(sv.close)
	}
	wg.Wait()
	if s.cancel != nil {
		s.cancel()
	}
	return nil
}

// Listed implements tools.Catalog: every server's tools under their
// mcp__ names, sorted, once each server's refresh under way is done (or
// ctx ends).
func (s *Servers) Listed(ctx context.Context) ([]tools.Listed, uint64) {
	s.mu.Lock()
	servers := slices.Clone(s.servers)
	s.mu.Unlock()
	for _, sv := range servers {
		sv.settled(ctx)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []tools.Listed
	for _, sv := range s.servers {
		out = append(out, sv.listed()...)
	}
	slices.SortFunc(out, func(a, b tools.Listed) int { return cmp.Compare(a.Name, b.Name) })
	return out, s.version
}

// Lookup implements tools.Catalog: the tool that name stands for in the
// servers' lists now.
func (s *Servers) Lookup(name string) (tools.Tool, bool) {
	rest, ok := strings.CutPrefix(name, tools.MCPPrefix)
	if !ok {
		return nil, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, sv := range s.servers {
		tool, ok := strings.CutPrefix(rest, sv.name+"__")
		if ok && sv.has(tool) {
			return &Tool{server: sv, name: tool, full: name}, true
		}
	}
	return nil, false
}

// changed records that a server's list changed.
func (s *Servers) changed() {
	s.mu.Lock()
	s.version++
	s.mu.Unlock()
}
