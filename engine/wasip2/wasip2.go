// Package wasip2 is mur-go's host side of WASI 0.2: wasi:cli, io, clocks,
// random, filesystem, sockets and http, registered on a component.Linker.
//
// Every capability comes from a Grants value: preopened directories
// (confined with os.Root), environment, arguments, stdio, network rules.
// Anything a Grants leaves unset is denied. The embedder creates one *Ctx
// per store (NewCtx) and tells Register how to find it, so its own
// per-store state can live beside it.
package wasip2

import (
	"context"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"net/http"
	"reflect"
	"sync"
	"time"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wit"
)

// Version is the WASI version the host registers. Guests importing any
// 0.2.x version bind to it (the engine applies the semver rule).
const Version = "0.2.12"

// ExitError is returned (wrapped in the call's error) when a guest calls
// wasi:cli/exit. Code is the exit status: 0 for exit(ok), 1 for
// exit(err), the given code for exit-with-code.
type ExitError struct {
	Code uint32
}

func (e *ExitError) Error() string { return fmt.Sprintf("guest exited with status %d", e.Code) }

// Ctx is one store's WASI state: its grants and the host objects its
// resource handles refer to. Create it with NewCtx; Close it when the store
// is done.
type Ctx struct {
	g      Grants
	egress *Egress
	seed   [2]uint64 // insecure-seed: fixed for the store's lifetime

	stdout, stderr *cappedWriter
	stdin          *bytesIn
	preopens       []*preopen

	// buf backs Ctx.scratch. Only the goroutine calling into the store
	// uses it, one host call at a time.
	buf []byte

	mu      sync.Mutex
	objs    map[uint32]any // resource rep → host object
	next    uint32
	tr      *http.Transport      // a pool of its own (httpPools.transport)
	cancels []context.CancelFunc // of HTTP requests, stopped by Close
}

// NewCtx opens the granted directories and returns the per-store state.
// Host directories that cannot be opened are an error.
func NewCtx(g Grants) (*Ctx, error) {
	c := &Ctx{
		g:      g,
		egress: NewEgress(g.Net, g.Resolver, g.Log),
		stdout: newCappedWriter(g.Stdout),
		stderr: newCappedWriter(g.Stderr),
		objs:   map[uint32]any{},
	}
	c.seed = [2]uint64{mrand.Uint64(), mrand.Uint64()}
	fds := newFDBudget(g.MaxOpenFiles)
	for _, d := range g.Dirs {
		p, err := openPreopen(d, fds)
		if err != nil {
			c.Close()
			return nil, err
		}
		c.preopens = append(c.preopens, p)
	}
	return c, nil
}

// Close releases every host object the guest still holds and the
// preopened directories.
func (c *Ctx) Close() error {
	c.mu.Lock()
	objs := c.objs
	c.objs = map[uint32]any{}
	c.mu.Unlock()
	for _, o := range objs {
		if d, ok := o.(dropper); ok {
			d.drop()
		}
	}
	c.mu.Lock()
	cancels, tr := c.cancels, c.tr
	c.cancels = nil
	c.mu.Unlock()
	for _, cancel := range cancels {
		cancel()
	}
	if tr != nil {
		tr.CloseIdleConnections()
	}
	var errs []error
	for _, p := range c.preopens {
		errs = append(errs, p.root.Close())
	}
	c.preopens = nil
	return errors.Join(errs...)
}

// Truncated reports whether the guest wrote more to stdout or stderr than
// its grant's cap; the excess was dropped.
func (c *Ctx) Truncated() (stdout, stderr bool) {
	return c.stdout.isTruncated(), c.stderr.isTruncated()
}

// scratch returns a buffer of n bytes for a host call's list<u8> result.
// The engine copies a result into guest memory before the guest can make
// its next call, and the canonical ABI forbids calls from the guest's
// realloc while it does, so one buffer per store serves every read:
// reading 1 MiB allocates nothing. n is at most maxChunk.
func (c *Ctx) scratch(n int) []byte {
	if cap(c.buf) < n {
		c.buf = make([]byte, n)
	}
	return c.buf[:n]
}

// dropper is implemented by host objects holding something to release
// when the guest drops its handle.
type dropper interface{ drop() }

// add stores a host object and returns the rep its handle carries.
func (c *Ctx) add(o any) uint32 {
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		c.next++
		if c.next == 0 {
			continue
		}
		if _, used := c.objs[c.next]; !used {
			c.objs[c.next] = o
			return c.next
		}
	}
}

// take removes a host object without releasing it: ownership moved to the
// host (an own<T> parameter) or the object is being destroyed.
func (c *Ctx) take(rep uint32) any {
	c.mu.Lock()
	defer c.mu.Unlock()
	o := c.objs[rep]
	delete(c.objs, rep)
	return o
}

func (c *Ctx) lookup(rep uint32) any {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.objs[rep]
}

// errBadHandle traps: the engine checks handle types, so a miss means the
// host lost track of an object, not that the guest misbehaved.
var errBadHandle = errors.New("wasip2: resource handle refers to no host object of the expected kind")

// newRes stores o and returns it as a handle of type t.
func (c *Ctx) newRes(t *wit.ResourceType, o any) wit.Resource {
	return wit.Resource{Type: t, Rep: c.add(o)}
}

// Register defines every WASI 0.2 interface on l. get returns the Ctx of
// a store; a store without one traps on its first WASI call.
func Register(l *component.Linker, get func(*component.Store) *Ctx) error {
	if l == nil || get == nil {
		return errors.New("wasip2.Register: nil linker or context getter")
	}
	if err := newHost(l, get, nil).register(); err != nil {
		return fmt.Errorf("wasip2.Register: %w", err)
	}
	return nil
}

// newHost prepares Register's state; record is for tests (host.record).
func newHost(l *component.Linker, get func(*component.Store) *Ctx, record map[string]hostFn) *host {
	t := newTypes()
	return &host{l: l, get: get, t: t, objects: objectTypes(t), clock: monoClock{origin: time.Now()}, record: record}
}

func (h *host) register() error {
	h.registerIO()
	h.registerClocks()
	h.registerRandom()
	h.registerCLI()
	h.registerFilesystem()
	h.registerSockets()
	h.registerHTTP()
	return h.err
}

// host carries Register's state while it defines functions.
type host struct {
	l   *component.Linker
	get func(*component.Store) *Ctx
	t   *types
	// objects are the Go types of the resources' host objects.
	objects map[*wit.ResourceType]reflect.Type
	err     error
	// clock is shared by all the stores of these functions.
	clock monoClock
	// pools are the HTTP connection pools their stores share.
	pools httpPools
	// record, when set (tests), collects every function by
	// "interface#name" so it can be called without a guest.
	record map[string]hostFn
}

var errNoCtx = errors.New("wasip2: the store has no WASI context")

// define registers a bound function (bind.go) under interface iface
// (e.g. "wasi:io/poll").
func (h *host) define(iface, name string, typ *wit.Func, f hostFn) {
	if h.err != nil {
		return
	}
	if h.record != nil {
		h.record[iface+"#"+name] = f
	}
	get := h.get
	h.err = h.l.DefineFunc(iface+"@"+Version, name, typ, func(ctx context.Context, s *component.Store, args []any) (any, error) {
		c := get(s)
		if c == nil {
			return nil, errNoCtx
		}
		return f(ctx, c, args)
	})
}

// method is the name of resource res's method name.
func method(res, name string) string { return "[method]" + res + "." + name }

// resource defines a resource type whose handles refer to Ctx objects;
// dropping the last owning handle releases the object.
func (h *host) resource(iface string, t *wit.ResourceType) {
	h.resourceAs(iface, t.Name, t)
}

// uses defines resource types that iface imports from another interface
// with WIT `use`: the guest's instance type names them too, and they must
// be the very same types.
func (h *host) uses(iface string, ts ...*wit.ResourceType) {
	for _, t := range ts {
		h.resourceAs(iface, t.Name, t)
	}
}

func (h *host) resourceAs(iface, name string, t *wit.ResourceType) {
	if h.err != nil {
		return
	}
	get := h.get
	h.err = h.l.DefineResource(iface+"@"+Version, name, t, func(ctx context.Context, s *component.Store, rep uint32) error {
		c := get(s)
		if c == nil {
			return errNoCtx
		}
		if d, ok := c.take(rep).(dropper); ok {
			d.drop()
		}
		return nil
	})
}
