package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/spf13/cobra"
	"go.opentelemetry.io/otel/trace"

	"github.com/mur-go/mur/internal/cluster/embedded"
	"github.com/mur-go/mur/internal/cluster/queue"
	"github.com/mur-go/mur/internal/format/manifest"
	server "github.com/mur-go/mur/internal/serve/a2a"
	"github.com/mur-go/mur/internal/serve/cluster"
	"github.com/mur-go/mur/internal/telemetry"
)

const gatewayLong = `Serve every capsule that has workers on a NATS JetStream cluster over
A2A (v1.0 JSON-RPC and HTTP+JSON, v0.3 JSON-RPC: the front door 'mur
run' serves). A capsule is reached by its manifest name: its card at
/NAME/.well-known/agent-card.json, its endpoints at /NAME. Its tasks are
queued on JetStream and run by 'mur worker' processes on any machine;
any gateway answers for any task.

--nats URL[,URL…] names the cluster's servers (nats:// or tls://; a
URL's credentials go to the NATS client only, never into a log or a
stream). --embedded-nats runs a JetStream server inside the gateway
instead, on 127.0.0.1 (--nats-port, 4222 by default), its data in
--nats-data or a temporary directory; it prints "nats: url …" for the
workers of this machine.

The gateway prints "a2a: url http://HOST:PORT" once it serves. Bearer
token (MURMUR_A2A_TOKEN), body and connection bounds are mur run's: a
--bind beyond loopback without a token is refused unless
--insecure-no-token. SIGINT or SIGTERM stops it; queued tasks stay queued.

With OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)
set, each A2A request is a server span "a2a METHOD" of service "mur
gateway", a child of the client's traceparent; a task's job carries the
span's context to the worker that runs it.`

type gatewayOptions struct {
	bind, nats, natsData string
	embedded, insecure   bool
	natsPort, replicas   int
	keep                 time.Duration
	host                 string
	port                 uint16
}

func newGatewayCommand(a *app) *cobra.Command {
	var o gatewayOptions
	cmd := &cobra.Command{
		Use:   "gateway",
		Short: "Serve the capsules of a NATS JetStream cluster over A2A",
		Long:  gatewayLong,
		Example: `  mur gateway --embedded-nats
  mur gateway --bind 0.0.0.0:8080 --nats nats://n1:4222,nats://n2:4222,nats://n3:4222`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.check(cmd); err != nil {
				return &usageError{cmd, err}
			}
			return runGateway(cmd.Context(), a, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.bind, "bind", "127.0.0.1:0", "HOST:PORT to serve A2A on (port 0 picks a free one)")
	f.StringVar(&o.nats, "nats", "", "the NATS servers, nats://HOST:PORT[,…]")
	f.BoolVar(&o.embedded, "embedded-nats", false, "run a JetStream server inside the gateway, for the workers of this machine")
	f.StringVar(&o.natsData, "nats-data", "", "with --embedded-nats: where JetStream keeps its data (default: a temporary directory, removed at exit)")
	f.IntVar(&o.natsPort, "nats-port", 4222, "with --embedded-nats: its client port on 127.0.0.1 (0 picks a free one)")
	f.IntVar(&o.replicas, "replicas", 0, "replicas of the task streams and buckets it creates (default 3 with --nats, 1 with --embedded-nats)")
	f.DurationVar(&o.keep, "keep-tasks", 24*time.Hour, "how long a task's record and events are kept")
	f.BoolVar(&o.insecure, "insecure-no-token", false, "serve a --bind beyond loopback without a token")
	return cmd
}

func (o *gatewayOptions) check(cmd *cobra.Command) error {
	switch {
	case o.embedded == (o.nats != ""):
		return errors.New("give one of --nats URL[,URL…] and --embedded-nats")
	case !o.embedded && (cmd.Flags().Changed("nats-data") || cmd.Flags().Changed("nats-port")):
		return errors.New("--nats-data and --nats-port are for --embedded-nats")
	case o.replicas < 0 || o.replicas > 5:
		return errors.New("--replicas must be 1 to 5")
	case o.keep < time.Minute:
		return errors.New("--keep-tasks must be at least 1m")
	}
	if o.nats != "" {
		if err := queue.CheckURLs(o.nats); err != nil {
			return err
		}
	}
	host, port, err := net.SplitHostPort(o.bind)
	if err != nil {
		return fmt.Errorf("--bind %q is not HOST:PORT", o.bind)
	}
	p, err := strconv.ParseUint(port, 10, 16)
	if err != nil {
		return fmt.Errorf("--bind port %q is not a port number", port)
	}
	o.host, o.port = host, uint16(p)
	return server.CheckExposure(host, os.Getenv(server.TokenEnv), o.insecure)
}

func runGateway(ctx context.Context, a *app, o gatewayOptions) error {
	ln, err := server.Listen(ctx, o.host, o.port)
	if err != nil {
		return err
	}
	urls, replicas := o.nats, o.replicas
	if o.embedded {
		srv, err := embedded.Start(embedded.Options{Port: o.natsPort, DataDir: o.natsData}, 10*time.Second)
		if err != nil {
			ln.Close()
			return err
		}
		defer srv.Shutdown()
		urls = srv.URL()
		if replicas == 0 {
			replicas = 1
		}
		fmt.Fprintf(a.stdout, "nats: url %s\n", urls)
	} else if replicas == 0 {
		replicas = 3
	}
	conn, err := queue.Connect(ctx, urls, "mur gateway", 10*time.Second)
	if err != nil {
		ln.Close()
		return err
	}
	defer conn.Close()
	stores, err := queue.Ensure(ctx, conn.JS, queue.Setup{Replicas: replicas, KeepTasks: o.keep})
	if err != nil {
		ln.Close()
		return err
	}
	tracer, stopSpans := a.gatewaySpans(ctx)
	defer stopSpans()
	// Stopped by a signal, mur exits with its status (interrupts).
	return cluster.Serve(ctx, cluster.Options{Listener: ln, Bind: o.host, Token: os.Getenv(server.TokenEnv),
		InsecureNoToken: o.insecure, Conn: conn, Stores: stores, Log: a.log, Tracer: tracer,
		OnListen: func(url string) { fmt.Fprintf(a.stdout, "a2a: url %s\n", url) }})
}

// gatewaySpans exports a span per A2A request when the environment names
// an OTLP collector (OTEL_EXPORTER_OTLP_ENDPOINT, …; there is no manifest
// here); stop flushes them for at most 2 s. A collector that cannot be
// used is a warning: the gateway serves all the same.
func (a *app) gatewaySpans(ctx context.Context) (trace.Tracer, func()) {
	cfg, warns, err := telemetry.Resolve(telemetry.Source{LookupEnv: os.LookupEnv})
	for _, w := range warns {
		fmt.Fprintln(a.stderr, w.String())
	}
	if err != nil || !cfg.Enabled() {
		return nil, func() {}
	}
	x, err := telemetry.StartService(ctx, cfg, "mur gateway", uuid.NewString(), murVersion())
	if err != nil {
		fmt.Fprintln(a.stderr, manifest.Warning{Code: telemetry.WarnTelemetry, File: cfg.From, Msg: "no spans are exported: " + err.Error()}.String())
		return nil, func() {}
	}
	return x.Tracer(), func() {
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		if w, ok := x.Warning(x.Shutdown(fctx), ""); ok {
			fmt.Fprintln(a.stderr, w.String())
		}
	}
}
