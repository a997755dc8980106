package worker

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/base/redact"
	"github.com/mur-go/mur/internal/cluster/queue"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/session"
)

// Options configure a worker.
type Options struct {
	// ID names the worker in task records and logs.
	ID string
	// Conn and Stores are the cluster.
	Conn   *queue.Conn
	Stores *queue.Stores
	// Capsule is the loaded manifest, ManifestPath where it is.
	Capsule      *manifest.Capsule
	ManifestPath string
	// Concurrency is how many tasks run at once (at least 1), each in one
	// of as many staged sessions: the worker fetches no more than it has
	// free slots for.
	Concurrency int
	// AckWait is how long the cluster waits for a sign of life before it
	// gives a task to another worker (0: 30 s); the worker signs every
	// third of it while the task runs.
	AckWait time.Duration
	// MaxAttempts is how many deliveries a task gets before it fails
	// (0: 3).
	MaxAttempts int
	// Session is what each of the worker's sessions' session.Run gets;
	// ManifestPath, Task, Serve and OnStaged are the worker's.
	Session session.Options
	// Secrets are the worker's own (the NATS URL's credentials): they
	// are redacted from everything it publishes.
	Secrets []string
	Log     *slog.Logger
	// OnReady, if set, is called once the capsule is listed for the
	// gateways and the worker takes tasks.
	OnReady func()
	// OnTask, if set, is told of each task as it starts and ends.
	OnTask func(event, task string)
}

// Worker runs one capsule's tasks.
type Worker struct {
	o       Options
	log     *slog.Logger
	secrets *redact.Redactor
	// jobs hands claimed deliveries to the sessions; closed on drain.
	jobs    chan *delivery
	mu      sync.Mutex
	running map[string]*delivery
}

// Run takes tasks until drain closes or ctx ends. After drain it takes
// nothing new and returns once the tasks it runs have ended: a drained
// worker loses nothing. When ctx ends the running sessions are canceled
// and their tasks are left unacknowledged, to be run again elsewhere.
func Run(ctx context.Context, o Options, drain <-chan struct{}) error {
	if o.Concurrency < 1 {
		o.Concurrency = 1
	}
	if o.AckWait <= 0 {
		o.AckWait = 30 * time.Second
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = 3
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	name := o.Capsule.Name
	if err := queue.CheckName(name); err != nil {
		return err
	}
	w := &Worker{o: o, log: o.Log, secrets: redact.New(o.Secrets...), running: map[string]*delivery{},
		jobs: make(chan *delivery)}
	cons, err := o.Conn.JS.CreateOrUpdateConsumer(ctx, queue.TasksStream, jetstream.ConsumerConfig{
		Durable: queue.ConsumerName(name), FilterSubject: queue.JobSubject(name),
		AckPolicy: jetstream.AckExplicitPolicy, AckWait: o.AckWait, MaxDeliver: -1,
		MaxRequestBatch: 0, Description: "mur workers of capsule " + name})
	if err != nil {
		return diagCluster("creating the capsule's consumer", err)
	}
	sub, err := o.Conn.NC.Subscribe(queue.CancelSubject(name), func(m *nats.Msg) { w.cancel(string(m.Data)) })
	if err != nil {
		return diagCluster("subscribing to cancels", err)
	}
	defer sub.Unsubscribe()
	inputs, err := o.Conn.NC.Subscribe(queue.InputSubject(name, o.ID), func(m *nats.Msg) { go w.answer(m) })
	if err != nil {
		return diagCluster("subscribing to answers", err)
	}
	defer inputs.Unsubscribe()
	fetching, stopFetching := context.WithCancel(ctx)
	defer stopFetching()
	go func() {
		select {
		case <-drain:
		case <-fetching.Done():
		}
		stopFetching()
	}()
	gone, err := w.sessions(ctx)
	if err != nil {
		return err
	}
	// However Run ends, the sessions end with it.
	defer func() { <-gone }()
	var closeJobs sync.Once
	defer closeJobs.Do(func() { close(w.jobs) })
	if err := w.advertise(ctx); err != nil {
		return err
	}
	go w.heartbeat(fetching)
	if o.OnReady != nil {
		o.OnReady()
	}

	var wg sync.WaitGroup
	slots := make(chan struct{}, o.Concurrency)
	for fetching.Err() == nil {
		select {
		case slots <- struct{}{}:
		case <-fetching.Done():
			continue
		}
		free := 1
		for free < o.Concurrency && tryTake(slots) {
			free++
		}
		batch, err := cons.Fetch(free, jetstream.FetchContext(fetching))
		got := 0
		if err == nil {
			for m := range batch.Messages() {
				got++
				if fetching.Err() != nil {
					// Drained while the batch came: hand it straight back.
					_ = m.Nak()
					<-slots
					continue
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					defer func() { <-slots }()
					w.run(ctx, m, gone)
				}()
			}
			err = batch.Error()
		}
		for range free - got {
			<-slots
		}
		if err != nil && fetching.Err() == nil && !errors.Is(err, nats.ErrTimeout) && !errors.Is(err, context.DeadlineExceeded) {
			w.log.Warn("fetching tasks", "error", w.secrets.String(err.Error()))
			select { // the cluster is unreachable or electing a leader: back off a little
			case <-time.After(250 * time.Millisecond):
			case <-fetching.Done():
			}
		}
	}
	wg.Wait()
	closeJobs.Do(func() { close(w.jobs) })
	return nil
}

func tryTake(slots chan struct{}) bool {
	select {
	case slots <- struct{}{}:
		return true
	default:
		return false
	}
}

// cancel ends the task if this worker runs it.
func (w *Worker) cancel(task string) {
	w.mu.Lock()
	d := w.running[task]
	w.mu.Unlock()
	if d != nil {
		d.cancelTask()
	}
}

func (w *Worker) track(task string, d *delivery) {
	w.mu.Lock()
	w.running[task] = d
	w.mu.Unlock()
}

func (w *Worker) untrack(task string) {
	w.mu.Lock()
	delete(w.running, task)
	w.mu.Unlock()
}

// advertise lists the capsule for the gateways (its cards), for
// CapsuleTTL from now.
func (w *Worker) advertise(ctx context.Context) error {
	b, err := json.Marshal(cardInfo(w.o.Capsule))
	if err != nil {
		return err
	}
	if _, err := w.o.Stores.Capsules.Put(ctx, w.o.Capsule.Name, b); err != nil {
		return diagCluster("listing the capsule", err)
	}
	return nil
}

// heartbeat renews the listing until the worker drains.
func (w *Worker) heartbeat(ctx context.Context) {
	t := time.NewTicker(queue.CapsuleHeartbeat)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := w.advertise(ctx); err != nil && ctx.Err() == nil {
				w.log.Warn("renewing the capsule's listing", "error", w.secrets.String(err.Error()))
			}
		}
	}
}

func diagCluster(what string, err error) error {
	return diag.Wrap(queue.CodeCluster, err, "%s: %v", what, err)
}
