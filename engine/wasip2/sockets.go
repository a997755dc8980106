package wasip2

import (
	"context"

	"github.com/mur-go/mur/engine/wit"
)

// Sockets: Murmur grants no raw socket access (network reach is HTTP
// rules only), so every wasi:sockets interface is present with its exact
// types and every operation fails with access-denied. Creating a socket
// or resolving a name already fails, so the socket methods can only be
// reached by a guest holding no socket; they answer the same way.

// network is the host object behind wasi:sockets/network.network.
type network struct{}

func (h *host) registerSockets() {
	t := h.t
	denied := func(ctx context.Context, c *Ctx, a []any) (any, error) {
		return wit.Err(sockAccessDenied), nil
	}
	ready := func(ctx context.Context, c *Ctx, a []any) (any, error) {
		return c.subscribe(t, alwaysReady{}), nil
	}
	r := func(ok wit.Type) *wit.Result { return result(ok, t.sockErrorCode) }

	const netIface = "wasi:sockets/network"
	h.resource(netIface, t.network)
	h.uses(netIface, t.ioError)
	// network-error-code is @unstable in WASI 0.2; providing it costs
	// nothing and serves guests built with the feature.
	h.fn(netIface, "network-error-code", fn(option(t.sockErrorCode), param("err", borrow(t.ioError))), func(ctx context.Context, c *Ctx, a []any) (any, error) {
		return wit.None(), nil
	})

	h.uses("wasi:sockets/instance-network", t.network)
	h.fn("wasi:sockets/instance-network", "instance-network", fn(own(t.network)), func(ctx context.Context, c *Ctx, a []any) (any, error) {
		return c.newRes(t.network, &network{}), nil
	})

	const lookup = "wasi:sockets/ip-name-lookup"
	h.resource(lookup, t.resolveStream)
	h.uses(lookup, t.pollable, t.network)
	h.fn(lookup, "resolve-addresses", fn(r(own(t.resolveStream)), param("network", borrow(t.network)), param("name", wit.String)), denied)
	h.method(lookup, "resolve-address-stream", "resolve-next-address", fn(r(option(t.ipAddr)), self(t.resolveStream)), denied)
	h.method(lookup, "resolve-address-stream", "subscribe", fn(own(t.pollable), self(t.resolveStream)), ready)

	const tcpCreate = "wasi:sockets/tcp-create-socket"
	h.uses(tcpCreate, t.network, t.tcpSocket)
	h.fn(tcpCreate, "create-tcp-socket", fn(r(own(t.tcpSocket)), param("address-family", t.ipFamily)), denied)

	const tcp = "wasi:sockets/tcp"
	h.resource(tcp, t.tcpSocket)
	h.uses(tcp, t.inputStream, t.outputStream, t.pollable, t.network)
	ts := self(t.tcpSocket)
	tm := func(name string, typ *wit.Func, f hostFn) { h.method(tcp, "tcp-socket", name, typ, f) }
	tm("start-bind", fn(r(nil), ts, param("network", borrow(t.network)), param("local-address", t.ipSockAddr)), denied)
	tm("finish-bind", fn(r(nil), ts), denied)
	tm("start-connect", fn(r(nil), ts, param("network", borrow(t.network)), param("remote-address", t.ipSockAddr)), denied)
	tm("finish-connect", fn(r(tuple(own(t.inputStream), own(t.outputStream))), ts), denied)
	tm("start-listen", fn(r(nil), ts), denied)
	tm("finish-listen", fn(r(nil), ts), denied)
	tm("accept", fn(r(tuple(own(t.tcpSocket), own(t.inputStream), own(t.outputStream))), ts), denied)
	tm("local-address", fn(r(t.ipSockAddr), ts), denied)
	tm("remote-address", fn(r(t.ipSockAddr), ts), denied)
	tm("is-listening", fn(wit.Bool, ts), func(ctx context.Context, c *Ctx, a []any) (any, error) { return false, nil })
	tm("address-family", fn(t.ipFamily, ts), func(ctx context.Context, c *Ctx, a []any) (any, error) { return uint32(0), nil })
	tm("set-listen-backlog-size", fn(r(nil), ts, param("value", wit.U64)), denied)
	for _, opt := range []struct {
		name string
		typ  wit.Type
	}{
		{"keep-alive-enabled", wit.Bool}, {"keep-alive-idle-time", wit.U64}, {"keep-alive-interval", wit.U64},
		{"keep-alive-count", wit.U32}, {"hop-limit", wit.U8}, {"receive-buffer-size", wit.U64}, {"send-buffer-size", wit.U64},
	} {
		tm(opt.name, fn(r(opt.typ), ts), denied)
		tm("set-"+opt.name, fn(r(nil), ts, param("value", opt.typ)), denied)
	}
	tm("subscribe", fn(own(t.pollable), ts), ready)
	tm("shutdown", fn(r(nil), ts, param("shutdown-type", t.shutdownType)), denied)

	const udpCreate = "wasi:sockets/udp-create-socket"
	h.uses(udpCreate, t.network, t.udpSocket)
	h.fn(udpCreate, "create-udp-socket", fn(r(own(t.udpSocket)), param("address-family", t.ipFamily)), denied)

	const udp = "wasi:sockets/udp"
	h.resource(udp, t.udpSocket)
	h.resource(udp, t.inDatagramStream)
	h.resource(udp, t.outDatagramStream)
	h.uses(udp, t.pollable, t.network)
	us := self(t.udpSocket)
	um := func(name string, typ *wit.Func, f hostFn) { h.method(udp, "udp-socket", name, typ, f) }
	um("start-bind", fn(r(nil), us, param("network", borrow(t.network)), param("local-address", t.ipSockAddr)), denied)
	um("finish-bind", fn(r(nil), us), denied)
	um("stream", fn(r(tuple(own(t.inDatagramStream), own(t.outDatagramStream))), us, param("remote-address", option(t.ipSockAddr))), denied)
	um("local-address", fn(r(t.ipSockAddr), us), denied)
	um("remote-address", fn(r(t.ipSockAddr), us), denied)
	um("address-family", fn(t.ipFamily, us), func(ctx context.Context, c *Ctx, a []any) (any, error) { return uint32(0), nil })
	for _, opt := range []struct {
		name string
		typ  wit.Type
	}{{"unicast-hop-limit", wit.U8}, {"receive-buffer-size", wit.U64}, {"send-buffer-size", wit.U64}} {
		um(opt.name, fn(r(opt.typ), us), denied)
		um("set-"+opt.name, fn(r(nil), us, param("value", opt.typ)), denied)
	}
	um("subscribe", fn(own(t.pollable), us), ready)
	h.method(udp, "incoming-datagram-stream", "receive", fn(r(list(t.inDatagram)), self(t.inDatagramStream), param("max-results", wit.U64)), denied)
	h.method(udp, "incoming-datagram-stream", "subscribe", fn(own(t.pollable), self(t.inDatagramStream)), ready)
	h.method(udp, "outgoing-datagram-stream", "check-send", fn(r(wit.U64), self(t.outDatagramStream)), denied)
	h.method(udp, "outgoing-datagram-stream", "send", fn(r(wit.U64), self(t.outDatagramStream), param("datagrams", list(t.outDatagram))), denied)
	h.method(udp, "outgoing-datagram-stream", "subscribe", fn(own(t.pollable), self(t.outDatagramStream)), ready)
}
