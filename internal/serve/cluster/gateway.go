package cluster

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/mur-go/mur/internal/base/httpbound"
	"github.com/mur-go/mur/internal/cluster/queue"
	server "github.com/mur-go/mur/internal/serve/a2a"
)

// Options configure a gateway.
type Options struct {
	// Listener is the bound port (a2a.Listen); Bind the address it was
	// bound for, checked with server.CheckExposure.
	Listener net.Listener
	Bind     string
	// Token is the bearer token every request but the public cards needs.
	Token           string
	InsecureNoToken bool
	// Conn and Stores are the cluster.
	Conn   *queue.Conn
	Stores *queue.Stores
	// Limits bound connections and bodies as mur run's server does.
	Limits httpbound.Limits
	// CancelWait is how long tasks/cancel waits for the worker to stop
	// the task (0: 30 s); the task is canceled all the same after it.
	CancelWait time.Duration
	Log        *slog.Logger
	// Tracer, if set, gives each A2A request a span (spans.go).
	Tracer trace.Tracer
	// OnListen is called with the gateway's base URL once it serves.
	OnListen func(url string)
}

// gateway serves every capsule's front door on one port.
type gateway struct {
	o       Options
	log     *slog.Logger
	bounds  *httpbound.Bounds
	base    string
	waits   *waits
	fronts  *fronts
	baseCtx context.Context
}

// Serve serves until ctx ends, then shuts the server down.
func Serve(ctx context.Context, o Options) error {
	if err := server.CheckExposure(o.Bind, o.Token, o.InsecureNoToken); err != nil {
		o.Listener.Close()
		return err
	}
	log := o.Log
	if log == nil {
		log = slog.Default()
	}
	if o.CancelWait <= 0 {
		o.CancelWait = 30 * time.Second
	}
	limits := o.Limits
	if limits.BodyTimeout <= 0 {
		limits.BodyTimeout = httpbound.Defaults().BodyTimeout
	}
	g := &gateway{o: o, log: log, bounds: httpbound.New(limits, log),
		base: "http://" + o.Listener.Addr().String(), baseCtx: ctx}
	w, err := startWaits(ctx, o.Stores.Tasks, log)
	if err != nil {
		o.Listener.Close()
		return err
	}
	defer w.stop()
	g.waits = w
	g.fronts = &fronts{g: g, m: map[string]*front{}}
	if o.Bind != "" && !httpbound.Loopback(o.Bind) {
		log.Warn("the gateway is reachable from other machines", "bind", o.Bind)
	}
	srv := g.bounds.Server(g, nil)
	srv.BaseContext = func(net.Listener) context.Context { return context.WithoutCancel(ctx) }
	served := make(chan error, 1)
	go func() { served <- srv.Serve(g.bounds.Listener(o.Listener)) }()
	if o.OnListen != nil {
		o.OnListen(g.base)
	}
	<-ctx.Done()
	shut, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shut); err != nil {
		_ = srv.Close()
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// ServeHTTP hands /NAME and /NAME/… to the capsule's front door with the
// prefix taken off.
func (g *gateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name, rest, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
	if name == "" || queue.CheckName(name) != nil {
		http.Error(w, "a capsule is served at /NAME, NAME its manifest name (its card at /NAME"+server.CardPath+")", http.StatusNotFound)
		return
	}
	f, err := g.fronts.get(r.Context(), name)
	if err != nil {
		g.log.Warn("looking up a capsule", "capsule", name, "error", err)
		http.Error(w, "the gateway could not reach the cluster", http.StatusServiceUnavailable)
		return
	}
	if f == nil {
		http.Error(w, "no worker serves capsule "+name+": start one with mur worker", http.StatusNotFound)
		return
	}
	r2 := r.Clone(r.Context())
	r2.URL.Path = "/" + rest
	r2.URL.RawPath = ""
	f.h.ServeHTTP(w, r2)
}
