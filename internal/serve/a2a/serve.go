package a2a

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
	"github.com/a2aproject/a2a-go/v2/a2asrv"

	"github.com/mur-go/mur/internal/agent"
	"github.com/mur-go/mur/internal/base/httpbound"
	"github.com/mur-go/mur/internal/base/running"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/stage"
)

// TokenEnv holds the bearer token clients must send, if any.
const TokenEnv = "MURMUR_A2A_TOKEN"

// KeepEnv sets how many finished tasks keep their reply when
// ServerOptions.KeepTasks is 0 (RATIONALE.md, Memory).
const KeepEnv = "MURMUR_A2A_KEEP_REPLIES"

// BodyTimeoutEnv sets, in whole seconds, how long a client has to send a
// request body when ServerOptions.Limits.BodyTimeout is 0 (RATIONALE.md,
// Bounds).
const BodyTimeoutEnv = "MURMUR_A2A_BODY_TIMEOUT_SECS"

const (
	defaultBind      = "127.0.0.1"
	defaultHeartbeat = 15 * time.Second
	defaultKeep      = 1024
	shutdownGrace    = 5 * time.Second
)

// ServerOptions configure one served session.
type ServerOptions struct {
	// SessionID is the served session's id (mur ps, the session card);
	// Workdir its accessible workdir, where task.md is written.
	SessionID, Workdir string
	// Lifecycle is the capsule's lifecycle block after any CLI override.
	Lifecycle manifest.Lifecycle
	// Card describes the capsule on the agent cards.
	Card CardInfo
	// Bind is the address to listen on; "" is 127.0.0.1. Anything that is
	// not loopback is logged as a warning, and refused without a Token
	// unless InsecureNoToken is set (CheckExposure).
	Bind string
	// Port is network.internal_port; 0 lets the OS choose.
	Port uint16
	// Listener, if set, is the port Listen bound for Bind and Port
	// before the session was staged; Serve serves it and closes it,
	// whatever it returns.
	Listener net.Listener
	// Token, if set, is the bearer token every request but the public card
	// must carry (the caller reads TokenEnv).
	Token string
	// InsecureNoToken serves a Bind beyond loopback without a Token.
	InsecureNoToken bool
	// Getenv reads MURMUR_A2A_TIMEOUT_SECS at each wait; nil is os.Getenv.
	Getenv func(string) string
	// Log receives notices; nil is slog.Default().
	Log *slog.Logger
	// Limits bound the server's connections, bodies and waits; zero fields
	// are httpbound's defaults, and a zero BodyTimeout reads
	// BodyTimeoutEnv.
	Limits httpbound.Limits
	// Heartbeat is the keep-alive interval of public SSE streams; 0 is 15 s.
	Heartbeat time.Duration
	// KeepTasks is how many finished tasks keep their reply (status
	// message, artifacts, history) for GetTask and ListTasks; older ones
	// keep only their state and context id, which the registry never
	// forgets (a2a-cli.md §2.5). 0 reads KeepEnv, else 1024.
	KeepTasks int
	// RunningDir, if set, is the registry of served sessions
	// (running.Dir(home)) this session is listed in while it serves.
	RunningDir string
	// OnListen is called with the capsule URL (localhost:PORT) once the
	// port is bound and before the first task.
	OnListen func(url string)
	// Run is the session loop: it takes tasks from src until src ends.
	Run func(ctx context.Context, src agent.TaskSource) error
}

func (o *ServerOptions) validate() error {
	if err := CheckLifecycle(o.Lifecycle); err != nil {
		return err
	}
	if o.SessionID == "" || o.Workdir == "" || o.Run == nil {
		return errors.New("a2a server: SessionID, Workdir and Run are required")
	}
	return nil
}

// CheckLifecycle refuses a lifecycle block Serve cannot follow; a caller
// with overrides to apply checks the result before it stages anything.
func CheckLifecycle(lc manifest.Lifecycle) error {
	switch lc.TaskAcceptance {
	case AcceptNone, AcceptSingle, AcceptQueue:
	default:
		return lifecycleError(fmt.Sprintf("lifecycle.task_acceptance must be one of: none, single, queue; got '%s'", lc.TaskAcceptance), "")
	}
	switch lc.AfterTask {
	case "exit", "sleep":
	default:
		return lifecycleError(fmt.Sprintf("lifecycle.after_task must be one of: exit, sleep; got '%s'", lc.AfterTask), "")
	}
	if lc.TaskAcceptance == AcceptQueue && lc.QueueDepth < 1 {
		return lifecycleError("lifecycle.queue_depth must be at least 1 in queue mode", "use 1 or more, or task_acceptance: single")
	}
	return nil
}

// Listen binds the server's port: bind ("" is 127.0.0.1) and port (0:
// any free one). A port in use is E-RUN-010. A caller binds first so
// that a taken port is refused before anything is staged.
func Listen(ctx context.Context, bind string, port uint16) (net.Listener, error) {
	if bind == "" {
		bind = defaultBind
	}
	addr := net.JoinHostPort(bind, strconv.Itoa(int(port)))
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return nil, bindError(addr, port, err)
	}
	return ln, nil
}

// CapsuleURL is the capsule URL (localhost:PORT) of a server on ln: what
// MURMUR.md and the guests' MURMUR_CAPSULE_URL name.
func CapsuleURL(ln net.Listener) string {
	return "localhost:" + strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
}

// Serve binds the A2A server, runs the session loop against its task
// source, and stops the server (closing every stream) when the loop ends;
// it returns the loop's error.
func Serve(ctx context.Context, o ServerOptions) error {
	if err := o.validate(); err != nil {
		if o.Listener != nil {
			o.Listener.Close()
		}
		return err
	}
	log := o.Log
	if log == nil {
		log = slog.Default()
	}
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	bind := o.Bind
	if bind == "" {
		bind = defaultBind
	}
	ln := o.Listener
	if err := CheckExposure(bind, o.Token, o.InsecureNoToken); err != nil {
		if ln != nil {
			ln.Close()
		}
		return err
	}
	limits := o.Limits
	if limits.BodyTimeout <= 0 {
		limits.BodyTimeout = bodyTimeout(getenv, log)
	}
	bounds := httpbound.New(limits, log)
	if ln == nil {
		var err error
		if ln, err = Listen(ctx, bind, o.Port); err != nil {
			return err
		}
	}
	url := CapsuleURL(ln)
	if !httpbound.Loopback(bind) {
		msg := "the A2A server is reachable from other machines"
		if o.Token == "" {
			msg += " and needs no token (--insecure-no-token): anyone who reaches the port can send the agent tasks"
		}
		log.Warn(msg, "bind", bind)
	}

	depth := int(o.Lifecycle.QueueDepth)
	keep := o.KeepTasks
	if keep <= 0 {
		keep = keepReplies(getenv, log)
	}
	watch := newWatchHub(o.Lifecycle.Conversation)
	reg := newRegistry(o.Lifecycle.TaskAcceptance, depth, keep, watch)
	var timeout *time.Duration
	if s := o.Lifecycle.InputTimeoutSecs; s != nil {
		d := time.Duration(*s) * time.Second
		timeout = &d
	}
	m, err := newMux(ctx, o, reg, watch, "http://"+url, bounds)
	if err != nil {
		ln.Close()
		return err
	}
	if m.mcard, err = murmurCard(o.Card, url); err != nil {
		ln.Close()
		return err
	}
	task, err := stage.OpenTaskFiles(o.Workdir)
	if err != nil {
		ln.Close()
		return err
	}
	src := &Source{g: reg, task: task, lc: o.Lifecycle, getenv: getenv, log: log, timeout: timeout}
	m.log = log
	conns := &connTracker{fresh: map[net.Conn]struct{}{}}
	srv := bounds.Server(m, conns.track)
	srv.BaseContext = func(net.Listener) context.Context { return context.WithoutCancel(ctx) }
	m.session, _ = json.Marshal(map[string]any{"session_id": o.SessionID, "pid": os.Getpid()})
	if o.RunningDir != "" {
		remove, err := running.Register(o.RunningDir, running.Entry{SessionID: o.SessionID, PID: os.Getpid(), URL: url,
			Name: o.Card.Name, Version: o.Card.Version, Workdir: o.Workdir, Started: time.Now().UTC(), Token: o.Token != ""})
		if err != nil {
			log.Warn("mur ps will not list this session", "error", err)
		} else {
			defer remove()
		}
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(bounds.Listener(ln)) }()
	if o.OnListen != nil {
		o.OnListen(url)
	}

	runErr := o.Run(ctx, src)

	src.close()
	reg.close()
	watch.close()
	shut, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownGrace)
	defer cancel()
	conns.closeFresh()
	if err := srv.Shutdown(shut); err != nil {
		_ = srv.Close()
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Warn("the A2A server stopped with an error", "error", err)
	}
	return runErr
}

// newMux builds the routes over the SDK's transports.
func newMux(ctx context.Context, o ServerOptions, reg *registry, watch *watchHub, base string, bounds *httpbound.Bounds) (*mux, error) {
	m, err := newFrontMux(ctx, &handler{g: reg}, o.Card, base, o.Token, o.Heartbeat, bounds)
	if err != nil {
		return nil, err
	}
	m.watch = watch
	return m, nil
}

// newFrontMux is the front door over h: the card, the token and the
// three transports behind the body bounds.
func newFrontMux(ctx context.Context, h a2asrv.RequestHandler, card CardInfo, base, token string, hb time.Duration, bounds *httpbound.Bounds) (*mux, error) {
	if hb <= 0 {
		hb = defaultHeartbeat
	}
	keep := a2asrv.WithTransportKeepAlive(hb)
	cards, err := newCardSource(ctx, card, base, token != "")
	if err != nil {
		return nil, err
	}
	m := &mux{
		v1:    a2asrv.NewJSONRPCHandler(h, keep),
		v0:    a2av0.NewJSONRPCHandler(h, keep),
		rest:  a2asrv.NewRESTHandler(h, keep),
		cards: cards, token: []byte(token),
	}
	m.routes = bounds.Body(http.HandlerFunc(m.route))
	return m, nil
}

// bodyTimeout reads BodyTimeoutEnv: unset is httpbound's default, and so
// is anything but a whole number of seconds of at least 1 (with a
// warning).
func bodyTimeout(getenv func(string) string, log *slog.Logger) time.Duration {
	def := httpbound.Defaults().BodyTimeout
	v := strings.TrimSpace(getenv(BodyTimeoutEnv))
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		log.Warn("ignoring "+BodyTimeoutEnv+": not a number of seconds of at least 1", "value", v, "seconds", int(def.Seconds()))
		return def
	}
	return time.Duration(n) * time.Second
}

// keepReplies reads KeepEnv: unset is 1024, and so is anything but a
// whole number of at least 1 (with a warning).
func keepReplies(getenv func(string) string, log *slog.Logger) int {
	v := strings.TrimSpace(getenv(KeepEnv))
	if v == "" {
		return defaultKeep
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		log.Warn("ignoring "+KeepEnv+": not a number of at least 1", "value", v, "keeping", defaultKeep)
		return defaultKeep
	}
	return n
}
