package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/spf13/cobra"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/cluster/queue"
	"github.com/mur-go/mur/internal/cluster/worker"
	"github.com/mur-go/mur/internal/format/lockfile"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/policy"
	mursandbox "github.com/mur-go/mur/internal/sandbox"
	runsession "github.com/mur-go/mur/internal/session"
	"github.com/mur-go/mur/internal/stage"
)

const workerLong = `Take an agent capsule's tasks from a NATS JetStream cluster and run
each in its own session, as 'mur run --task' would: staged from the
project's murmur.lock and stores (install with 'mur install' first),
with its tools, hooks, trace and containment unchanged. Its status,
answer and streamed text go back through the session's redactor to the
gateway ('mur gateway') the client used.

Several workers of one capsule share its tasks. --concurrency N runs at
most N at once, and the worker takes no task it has no room for. A task
whose worker dies is given to another after --ack-wait (the worker
signs every third of it while the task runs) and run again from the
start, as a new attempt; after --max-attempts deliveries it fails.

The first SIGINT or SIGTERM drains the worker: it takes nothing new,
finishes the tasks it runs and exits 0. A second one stops them (they
are run again elsewhere) and exits 130 or 143.`

type workerOptions struct {
	nats, manifest, containment string
	concurrency, attempts       int
	replicas                    int
	ackWait                     time.Duration
	noEnvFile, noCgroup         bool
}

func newWorkerCommand(a *app) *cobra.Command {
	var o workerOptions
	cmd := &cobra.Command{
		Use:     "worker",
		Short:   "Run a capsule's tasks from a NATS JetStream cluster",
		Long:    workerLong,
		Example: `  mur worker --nats nats://127.0.0.1:4222 --manifest murmur.yaml --concurrency 4`,
		Args:    exactArgs(),
		RunE: func(cmd *cobra.Command, args []string) error {
			off, err := noCgroupFromEnv(os.Getenv(noCgroupEnv))
			if err != nil {
				return &usageError{cmd, err}
			}
			o.noCgroup = o.noCgroup || off
			if err := o.check(); err != nil {
				return &usageError{cmd, err}
			}
			return runWorker(cmd.Context(), a, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.nats, "nats", "", "the NATS servers, nats://HOST:PORT[,…] (required)")
	f.StringVar(&o.manifest, "manifest", manifest.FileName, "the capsule manifest")
	f.IntVar(&o.concurrency, "concurrency", 1, "how many tasks run at once")
	f.DurationVar(&o.ackWait, "ack-wait", 30*time.Second, "how long a task of a worker that stopped answering waits before another worker runs it")
	f.IntVar(&o.attempts, "max-attempts", 3, "how many times a task is started before it fails")
	f.IntVar(&o.replicas, "replicas", 3, "replicas of the streams and buckets, if this worker creates them (1 for a single NATS server)")
	f.StringVar(&o.containment, "containment", "", "the weakest containment class the sessions accept: advisory, scoped or sealed")
	f.BoolVar(&o.noEnvFile, "no-env-file", false, "do not load .env from the manifest's directory or its ancestors")
	f.BoolVar(&o.noCgroup, "no-cgroup", false, "run the capsule's native tools without the session's cgroup scope (W-SEC-010) instead of refusing it E-RUN-012; also MUR_NO_CGROUP=1")
	return cmd
}

func (o *workerOptions) check() error {
	switch {
	case o.nats == "":
		return errors.New("--nats URL[,URL…] is required: the cluster to take tasks from")
	case o.concurrency < 1 || o.concurrency > 1024:
		return errors.New("--concurrency must be 1 to 1024")
	case o.attempts < 1:
		return errors.New("--max-attempts must be at least 1")
	case o.ackWait < time.Second:
		return errors.New("--ack-wait must be at least 1s")
	case o.replicas < 1 || o.replicas > 5:
		return errors.New("--replicas must be 1 to 5")
	}
	if err := queue.CheckURLs(o.nats); err != nil {
		return err
	}
	return policy.ContainmentFlag(o.containment)
}

func runWorker(ctx context.Context, a *app, o workerOptions) error {
	drain := drainOnSignal(ctx)
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("locating the mur binary to start native tools through: %w", err)
	}
	path, err := filepath.Abs(o.manifest)
	if err != nil {
		return err
	}
	f, warns, err := manifest.LoadWith(path, manifest.LoadOptions{Role: manifest.RoleCapsule, Env: os.LookupEnv, NoEnvFile: o.noEnvFile})
	for _, w := range warns {
		fmt.Fprintln(a.stderr, w.String())
	}
	if err != nil {
		return err
	}
	if f.Capsule == nil || !f.Capsule.IsAgent() {
		return diag.New(queue.CodeCluster, "%s is not an agent capsule: a worker runs tasks for a capsule with an inference: block", path)
	}
	if err := queue.CheckName(f.Capsule.Name); err != nil {
		return err
	}
	if _, err := stage.ReadLock(filepath.Join(filepath.Dir(path), lockfile.FileName)); err != nil {
		return err
	}
	conn, err := queue.Connect(ctx, o.nats, "mur worker", 10*time.Second)
	if err != nil {
		return err
	}
	defer conn.Close()
	stores, err := queue.Ensure(ctx, conn.JS, queue.Setup{Replicas: o.replicas})
	if err != nil {
		return err
	}
	// Its sessions call their driver and tools --concurrency at a time:
	// room for an idle store of each per session keeps a call from
	// instantiating its component afresh.
	engine, err := component.NewEngine(ctx, component.Config{CacheDir: os.Getenv(cacheDirEnv), IdleStores: 2 * o.concurrency})
	if err != nil {
		return fmt.Errorf("starting the engine: %w", err)
	}
	defer engine.Close(context.WithoutCancel(ctx))
	id := "wrk_" + strings.ReplaceAll(uuid.NewString(), "-", "")[:16]
	err = worker.Run(ctx, worker.Options{
		ID: id, Conn: conn, Stores: stores, Capsule: f.Capsule, ManifestPath: path,
		Concurrency: o.concurrency, AckWait: o.ackWait, MaxAttempts: o.attempts,
		Secrets: queue.Secrets(o.nats), Log: a.log,
		Session: runsession.Options{
			NoEnvFile: o.noEnvFile, Containment: o.containment, NoCgroup: o.noCgroup,
			Trampoline: self, Prober: mursandbox.NewProber(self), RuntimeVersion: murVersion(),
			Engine: engine, CacheDir: os.Getenv(cacheDirEnv), Log: a.log,
			OnWarning:         func(w manifest.Warning) { a.log.Debug(w.String()) },
			OnSecurityWarning: func(w manifest.Warning) { a.log.Debug(policy.LaunchLine(policy.StderrPrefix, w)) },
		},
		OnReady: func() {
			fmt.Fprintf(a.stdout, "worker: %s serving %s v%s (concurrency %d)\n", id, f.Capsule.Name, f.Capsule.Version, o.concurrency)
		},
		OnTask: func(event, task string) { fmt.Fprintf(a.stdout, "task: %s %s\n", event, task) },
	}, drain)
	if err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "worker: %s stopped\n", id)
	return nil
}
