package queue

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/mur-go/mur/internal/base/diag"
)

// Setup is how long the cluster keeps what it keeps.
type Setup struct {
	// Replicas is each stream's and bucket's replication: 3 on a cluster,
	// 1 on a single server.
	Replicas int
	// KeepTasks is how long a task's record and events are kept (0: 24 h).
	KeepTasks time.Duration
	// CapsuleTTL is how long a capsule stays listed after its last
	// worker's heartbeat (0: 15 s).
	CapsuleTTL time.Duration
}

// CapsuleHeartbeat is how often a worker renews its capsule's listing.
const CapsuleHeartbeat = 5 * time.Second

func (s Setup) withDefaults() Setup {
	if s.Replicas <= 0 {
		s.Replicas = 1
	}
	if s.KeepTasks <= 0 {
		s.KeepTasks = 24 * time.Hour
	}
	if s.CapsuleTTL <= 0 {
		s.CapsuleTTL = 3 * CapsuleHeartbeat
	}
	return s
}

// Stores are the cluster's buckets, once they exist.
type Stores struct {
	Tasks, Capsules jetstream.KeyValue
}

// ensureBudget and ensureAttempt bound Ensure: a gateway or worker that
// starts while the cluster elects a leader, or is too loaded to answer
// one of its dozen requests at once, tries again rather than exiting.
const (
	ensureBudget  = 30 * time.Second
	ensureAttempt = 10 * time.Second
)

// Ensure makes the streams and buckets that do not exist yet and opens
// them; existing ones are used as they are, whoever made them. Every
// step is safe to repeat, so the whole rides out the cluster's passing
// unavailability as every other request does (Retry).
func Ensure(ctx context.Context, js jetstream.JetStream, s Setup) (*Stores, error) {
	var st *Stores
	err := retryEach(ctx, ensureBudget, ensureAttempt, func(ctx context.Context) error {
		var err error
		st, err = ensureOnce(ctx, js, s)
		return err
	})
	return st, err
}

func ensureOnce(ctx context.Context, js jetstream.JetStream, s Setup) (*Stores, error) {
	s = s.withDefaults()
	streams := []jetstream.StreamConfig{
		{Name: TasksStream, Subjects: []string{"mur.task.*"}, Retention: jetstream.WorkQueuePolicy,
			Replicas: s.Replicas, Duplicates: 2 * time.Minute, MaxMsgSize: MaxRecord, Discard: jetstream.DiscardNew},
		{Name: EventsStream, Subjects: []string{"mur.ev.*.*"}, Retention: jetstream.LimitsPolicy,
			Replicas: s.Replicas, MaxAge: time.Hour, MaxMsgSize: MaxRecord},
	}
	for _, cfg := range streams {
		if _, err := js.Stream(ctx, cfg.Name); err == nil {
			continue
		} else if !errors.Is(err, jetstream.ErrStreamNotFound) {
			return nil, setupError(cfg.Name, err)
		}
		if _, err := js.CreateStream(ctx, cfg); err != nil && !errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
			return nil, setupError(cfg.Name, err)
		}
	}
	tasks, err := bucket(ctx, js, jetstream.KeyValueConfig{Bucket: TasksBucket, History: 1, TTL: s.KeepTasks,
		MaxValueSize: MaxRecord, Replicas: s.Replicas})
	if err != nil {
		return nil, err
	}
	caps, err := bucket(ctx, js, jetstream.KeyValueConfig{Bucket: CapsulesBucket, History: 1, TTL: s.CapsuleTTL,
		MaxValueSize: 64 << 10, Replicas: s.Replicas})
	if err != nil {
		return nil, err
	}
	return &Stores{Tasks: tasks, Capsules: caps}, nil
}

// bucket opens a bucket, made if missing. Its reads go to the stream's
// leader, not to any replica (AllowDirect off): a replica may not hold
// the write a moment ago yet, and a gateway that recorded a task must
// find it when it reads it back, wherever the read lands.
func bucket(ctx context.Context, js jetstream.JetStream, cfg jetstream.KeyValueConfig) (jetstream.KeyValue, error) {
	_, err := js.KeyValue(ctx, cfg.Bucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		if _, err = js.CreateKeyValue(ctx, cfg); err != nil {
			_, err2 := js.KeyValue(ctx, cfg.Bucket)
			if err2 != nil {
				return nil, setupError(cfg.Bucket, err)
			}
		}
	} else if err != nil {
		return nil, setupError(cfg.Bucket, err)
	}
	name := "KV_" + cfg.Bucket
	s, err := js.Stream(ctx, name)
	if err != nil {
		return nil, setupError(cfg.Bucket, err)
	}
	if sc := s.CachedInfo().Config; sc.AllowDirect || sc.MirrorDirect {
		sc.AllowDirect, sc.MirrorDirect = false, false
		if _, err := js.UpdateStream(ctx, sc); err != nil {
			return nil, setupError(cfg.Bucket, err)
		}
	}
	// Opened after the update, the bucket reads through the leader.
	kv, err := js.KeyValue(ctx, cfg.Bucket)
	if err != nil {
		return nil, setupError(cfg.Bucket, err)
	}
	return kv, nil
}

func setupError(name string, err error) error {
	e := diag.Wrap(CodeCluster, err, "could not set up JetStream's %s: %v", name, err)
	if strings.Contains(err.Error(), "insufficient resources") || strings.Contains(err.Error(), "replicas") {
		e.WithHint("a single NATS server keeps one replica: pass --replicas 1")
	} else {
		e.WithHint("the NATS servers must run with JetStream enabled (nats-server -js)")
	}
	return e
}
