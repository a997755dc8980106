package wasip2

import (
	"context"
	"errors"
	"net"
	"net/http"
	"reflect"
	"sync"
	"time"
)

// httpPools are the HTTP connection pools the stores of one Register
// share. Every tool or driver call is a new store, so a pool per store
// opened a new connection, with its goroutines and buffers, for every
// call to the same provider.
//
// A store uses a shared connection only where its own egress would have
// made the same one. Every request is put to its store's policy by name
// (AllowRequest, then AdmitDial: startRequest) whether its connection is
// new or pooled, and what a dial decides besides that depends only on
// the resolver's answer, so stores share a pool only with the same
// Resolver. They also share it only with the same Credential: a
// connection that carried a secret never carries a request of a store
// that was not given it (a tool beside its driver, say).
type httpPools struct {
	mu sync.Mutex
	m  map[poolKey]*http.Transport
}

type poolKey struct {
	resolver Resolver
	cred     *Credential
}

// poolIdle is how long an unused pooled connection stays open: long
// enough to span the turns of a session, short enough that a finished
// one lets its provider's connections go.
const poolIdle = 30 * time.Second

// storeEgressKey carries a request's store egress to the pool's dialer.
type storeEgressKey struct{}

// transport returns the pool c's requests go through. A resolver that
// cannot be compared cannot be matched to a pool, so its store keeps a
// pool of its own (closed with the store).
func (p *httpPools) transport(c *Ctx) *http.Transport {
	r := c.g.Resolver
	if r != nil && !reflect.TypeOf(r).Comparable() {
		return c.ownTransport()
	}
	k := poolKey{resolver: r, cred: c.g.Credential}
	p.mu.Lock()
	defer p.mu.Unlock()
	if t := p.m[k]; t != nil {
		return t
	}
	if p.m == nil {
		p.m = map[poolKey]*http.Transport{}
	}
	t := poolTransport(c.egress)
	p.m[k] = t
	return t
}

// poolTransport is a connection pool whose every connection is dialled by
// the egress of the store whose request asked for it.
func poolTransport(e *Egress) *http.Transport {
	t := e.Transport(nil)
	t.DialContext = dialStoreEgress
	t.IdleConnTimeout = poolIdle
	return t
}

// dialStoreEgress dials through the egress of the store whose request
// asked for the connection, with that request's connect timeout.
func dialStoreEgress(ctx context.Context, network, addr string) (net.Conn, error) {
	e, ok := ctx.Value(storeEgressKey{}).(*Egress)
	if !ok {
		return nil, errors.New("wasip2: a pooled HTTP connection was asked for without a store's egress")
	}
	if t, ok := ctx.Value(connectTimeoutKey{}).(time.Duration); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, t)
		defer cancel()
	}
	return e.DialContext(ctx, network, addr)
}

// ownTransport is the store's own pool, made on its first request.
func (c *Ctx) ownTransport() *http.Transport {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tr == nil {
		c.tr = poolTransport(c.egress)
	}
	return c.tr
}
