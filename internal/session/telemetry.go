package session

import (
	"context"
	"errors"
	"time"

	"github.com/mur-go/mur/internal/agent/observe"
	"github.com/mur-go/mur/internal/agent/trace"
	"github.com/mur-go/mur/internal/base/redact"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/launch"
	"github.com/mur-go/mur/internal/stage"
	"github.com/mur-go/mur/internal/telemetry"
)

// telemetryFlush bounds how long a session's end waits for its last spans
// to reach the collector: a collector that hangs delays the end by this
// much at most.
const telemetryFlush = 2 * time.Second

// resolveTelemetry decides, before anything is staged, where the
// session's spans go (package telemetry): an observability.otel_endpoint
// no collector can be at refuses the run. The environment's header
// values join the session's secrets whether or not they are sent.
func resolveTelemetry(f *manifest.File, o Options, secrets *redact.Redactor) (telemetry.Config, []manifest.Warning, error) {
	cfg, warns, err := telemetry.Resolve(telemetry.Source{Endpoint: f.Capsule.OtelEndpoint, File: f.Path, LookupEnv: f.LookupEnv})
	for _, s := range cfg.Secrets {
		secrets.Add(s)
	}
	for _, w := range warns {
		o.OnWarning(w)
	}
	return cfg, warns, err
}

// sessionTelemetry is a staged session's span export.
type sessionTelemetry struct {
	x    *telemetry.Exporter
	sess *stage.Staged
	file string
	o    Options
}

// startTelemetry starts exporting the session's spans as cfg says (nil
// when it says nothing); warns, told on stderr already, go to
// bootstrap.log. An exporter that cannot be set up is a warning: the run
// goes on without it.
func startTelemetry(ctx context.Context, cfg telemetry.Config, warns []manifest.Warning, sess *stage.Staged, f *manifest.File, o Options) *sessionTelemetry {
	for _, w := range warns {
		bootstrap(sess, o, w)
	}
	if !cfg.Enabled() {
		return nil
	}
	parent, _ := f.LookupEnv(telemetry.EnvTraceparent)
	x, err := telemetry.Start(ctx, cfg, telemetry.Identity{SessionID: sess.ID, Capsule: sess.Capsule, Traceparent: parent})
	if err != nil {
		w := manifest.Warning{Code: telemetry.WarnTelemetry, File: cfg.From, Msg: "no spans are exported: " + sess.Secrets().String(err.Error())}
		o.OnWarning(w)
		bootstrap(sess, o, w)
		return nil
	}
	return &sessionTelemetry{x: x, sess: sess, file: f.Path, o: o}
}

// observer is the session's observer: its spans' and the caller's,
// shared by the loop and the hooks (whose async workers report from
// goroutines of their own), one event at a time.
func (t *sessionTelemetry) observer(caller observe.Observer) observe.Observer {
	var spans observe.Observer
	if t != nil {
		spans = t.x.Observer()
	}
	return observe.Serial(observe.Tee(spans, caller))
}

// runScript runs a script capsule as the session's invoke_workflow span,
// whose context its A2A sends carry.
func (t *sessionTelemetry) runScript(ctx context.Context, lo launch.Options) error {
	if t == nil {
		return launch.Script(ctx, lo)
	}
	w := t.x.StartWorkflow(time.Now())
	lo.Traceparent = w.Traceparent
	err := launch.Script(ctx, lo)
	failure := ""
	if err != nil {
		failure = t.sess.Secrets().String(err.Error())
	}
	w.End(time.Now(), err != nil, failure)
	return err
}

// finish flushes the session's spans within telemetryFlush, records what
// became of them in trace.jsonl (a telemetry record) and warns when some
// did not reach the collector. Nothing here fails the run.
func (t *sessionTelemetry) finish(ctx context.Context) {
	if t == nil {
		return
	}
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), telemetryFlush)
	defer cancel()
	stats := t.x.Shutdown(fctx)
	if err := t.record(stats); err != nil {
		t.o.Log.Warn("recording the telemetry export in trace.jsonl", "err", err)
	}
	if w, ok := t.x.Warning(stats, t.file); ok {
		w.Msg = t.sess.Secrets().String(w.Msg)
		t.o.OnWarning(w)
		bootstrap(t.sess, t.o, w)
	}
}

// record appends the telemetry record to the session's trace.jsonl,
// after everything the run wrote there.
func (t *sessionTelemetry) record(stats telemetry.Stats) error {
	w, err := trace.Open(t.sess.SessionDir, t.sess.ID, nil, t.sess.Secrets())
	if err != nil {
		return err
	}
	return errors.Join(w.Write(telemetry.RecordType, t.x.Record(stats)), w.Close())
}

// bootstrap appends w to the session's logs/bootstrap.log.
func bootstrap(sess *stage.Staged, o Options, w manifest.Warning) {
	if err := sess.AppendBootstrap(w.String()); err != nil {
		o.Log.Warn("writing logs/bootstrap.log", "err", err)
	}
}
