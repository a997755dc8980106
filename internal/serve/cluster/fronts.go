package cluster

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync"

	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mur-go/mur/internal/cluster/queue"
	server "github.com/mur-go/mur/internal/serve/a2a"
)

// front is one capsule's front door, built from what its workers say of
// it (the card information in CapsulesBucket).
type front struct {
	card []byte
	h    http.Handler
}

// fronts keeps the capsules' front doors; one is rebuilt when its
// workers' card changes, and none is served for a capsule whose workers
// all stopped renewing it.
type fronts struct {
	g  *gateway
	mu sync.Mutex
	m  map[string]*front
}

// get is name's front door, nil when no worker serves it.
func (fs *fronts) get(ctx context.Context, name string) (*front, error) {
	var e jetstream.KeyValueEntry
	err := queue.Retry(ctx, retryBudget, func(ctx context.Context) error {
		var err error
		e, err = fs.g.o.Stores.Capsules.Get(ctx, name)
		return err
	})
	if errors.Is(err, jetstream.ErrKeyNotFound) || errors.Is(err, jetstream.ErrKeyDeleted) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if f := fs.m[name]; f != nil && bytes.Equal(f.card, e.Value()) {
		return f, nil
	}
	var info server.CardInfo
	if err := json.Unmarshal(e.Value(), &info); err != nil || info.Name != name {
		return nil, errors.New("the capsule's card in the cluster is not one a mur worker wrote")
	}
	var rh a2asrv.RequestHandler = &handler{g: fs.g, name: name}
	if fs.g.o.Tracer != nil {
		rh = &traced{RequestHandler: rh, tracer: fs.g.o.Tracer, capsule: name}
	}
	h, err := server.NewFront(fs.g.baseCtx, server.FrontOptions{
		Handler: rh,
		Card:    info, Base: fs.g.base + "/" + name, Token: fs.g.o.Token, Bounds: fs.g.bounds,
	})
	if err != nil {
		return nil, err
	}
	f := &front{card: bytes.Clone(e.Value()), h: h}
	fs.m[name] = f
	return f, nil
}
