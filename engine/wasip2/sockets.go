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
	r := func(ok wit.Type) *wit.Result { return result(ok, t.sockErrorCode) }

	const netIface = "wasi:sockets/network"
	h.resource(netIface, t.network)
	h.uses(netIface, t.ioError)
	// network-error-code is @unstable in WASI 0.2; providing it costs
	// nothing and serves guests built with the feature.
	def1(h, netIface, "network-error-code", fn(option(t.sockErrorCode), param("err", borrow(t.ioError))), func(ctx context.Context, c *Ctx, e *ioError) (opt[uint32], error) {
		return none[uint32](), nil
	})
	h.uses("wasi:sockets/instance-network", t.network)
	def0(h, "wasi:sockets/instance-network", "instance-network", fn(own(t.network)), func(ctx context.Context, c *Ctx) (*network, error) {
		return &network{}, nil
	})

	const lookup = "wasi:sockets/ip-name-lookup"
	h.resource(lookup, t.resolveStream)
	h.uses(lookup, t.pollable, t.network)
	refuse(h, lookup, "resolve-addresses", fn(r(own(t.resolveStream)), param("network", borrow(t.network)), param("name", wit.String)), sockAccessDenied)
	refuse(h, lookup, method("resolve-address-stream", "resolve-next-address"), fn(r(option(t.ipAddr)), self(t.resolveStream)), sockAccessDenied)
	subscribeNever[*resolveStream](h, lookup, "resolve-address-stream", t.resolveStream)

	const tcpCreate = "wasi:sockets/tcp-create-socket"
	h.uses(tcpCreate, t.network, t.tcpSocket)
	refuse(h, tcpCreate, "create-tcp-socket", fn(r(own(t.tcpSocket)), param("address-family", t.ipFamily)), sockAccessDenied)
	const udpCreate = "wasi:sockets/udp-create-socket"
	h.uses(udpCreate, t.network, t.udpSocket)
	refuse(h, udpCreate, "create-udp-socket", fn(r(own(t.udpSocket)), param("address-family", t.ipFamily)), sockAccessDenied)

	h.registerTCP()
	h.registerUDP()
}

// subscribeNever defines res's subscribe method: no guest holds one, so
// no caller waits on it.
func subscribeNever[T any](h *host, iface, resName string, res *wit.ResourceType) {
	def1(h, iface, method(resName, "subscribe"), fn(own(h.t.pollable), self(res)), func(ctx context.Context, c *Ctx, _ T) (*pollable, error) {
		return &pollable{src: alwaysReady{}}, nil
	})
}

// addressFamily defines res's address-family method.
func addressFamily[T any](h *host, iface, resName string, res *wit.ResourceType) {
	def1(h, iface, method(resName, "address-family"), fn(h.t.ipFamily, self(res)), func(ctx context.Context, c *Ctx, _ T) (uint32, error) {
		return 0, nil
	})
}

func (h *host) registerTCP() {
	t := h.t
	r := func(ok wit.Type) *wit.Result { return result(ok, t.sockErrorCode) }
	const tcp = "wasi:sockets/tcp"
	h.resource(tcp, t.tcpSocket)
	h.uses(tcp, t.inputStream, t.outputStream, t.pollable, t.network)
	ts := self(t.tcpSocket)
	deny := func(name string, typ *wit.Func) { refuse(h, tcp, method("tcp-socket", name), typ, sockAccessDenied) }
	deny("start-bind", fn(r(nil), ts, param("network", borrow(t.network)), param("local-address", t.ipSockAddr)))
	deny("finish-bind", fn(r(nil), ts))
	deny("start-connect", fn(r(nil), ts, param("network", borrow(t.network)), param("remote-address", t.ipSockAddr)))
	deny("finish-connect", fn(r(tuple(own(t.inputStream), own(t.outputStream))), ts))
	deny("start-listen", fn(r(nil), ts))
	deny("finish-listen", fn(r(nil), ts))
	deny("accept", fn(r(tuple(own(t.tcpSocket), own(t.inputStream), own(t.outputStream))), ts))
	deny("local-address", fn(r(t.ipSockAddr), ts))
	deny("remote-address", fn(r(t.ipSockAddr), ts))
	def1(h, tcp, method("tcp-socket", "is-listening"), fn(wit.Bool, ts), func(ctx context.Context, c *Ctx, _ *tcpSocket) (bool, error) {
		return false, nil
	})
	addressFamily[*tcpSocket](h, tcp, "tcp-socket", t.tcpSocket)
	deny("set-listen-backlog-size", fn(r(nil), ts, param("value", wit.U64)))
	for _, opt := range []struct {
		name string
		typ  wit.Type
	}{
		{"keep-alive-enabled", wit.Bool}, {"keep-alive-idle-time", wit.U64}, {"keep-alive-interval", wit.U64},
		{"keep-alive-count", wit.U32}, {"hop-limit", wit.U8}, {"receive-buffer-size", wit.U64}, {"send-buffer-size", wit.U64},
	} {
		deny(opt.name, fn(r(opt.typ), ts))
		deny("set-"+opt.name, fn(r(nil), ts, param("value", opt.typ)))
	}
	subscribeNever[*tcpSocket](h, tcp, "tcp-socket", t.tcpSocket)
	deny("shutdown", fn(r(nil), ts, param("shutdown-type", t.shutdownType)))
}

func (h *host) registerUDP() {
	t := h.t
	r := func(ok wit.Type) *wit.Result { return result(ok, t.sockErrorCode) }
	const udp = "wasi:sockets/udp"
	h.resource(udp, t.udpSocket)
	h.resource(udp, t.inDatagramStream)
	h.resource(udp, t.outDatagramStream)
	h.uses(udp, t.pollable, t.network)
	us := self(t.udpSocket)
	deny := func(resName, name string, typ *wit.Func) {
		refuse(h, udp, method(resName, name), typ, sockAccessDenied)
	}
	deny("udp-socket", "start-bind", fn(r(nil), us, param("network", borrow(t.network)), param("local-address", t.ipSockAddr)))
	deny("udp-socket", "finish-bind", fn(r(nil), us))
	deny("udp-socket", "stream", fn(r(tuple(own(t.inDatagramStream), own(t.outDatagramStream))), us, param("remote-address", option(t.ipSockAddr))))
	deny("udp-socket", "local-address", fn(r(t.ipSockAddr), us))
	deny("udp-socket", "remote-address", fn(r(t.ipSockAddr), us))
	addressFamily[*udpSocket](h, udp, "udp-socket", t.udpSocket)
	for _, opt := range []struct {
		name string
		typ  wit.Type
	}{{"unicast-hop-limit", wit.U8}, {"receive-buffer-size", wit.U64}, {"send-buffer-size", wit.U64}} {
		deny("udp-socket", opt.name, fn(r(opt.typ), us))
		deny("udp-socket", "set-"+opt.name, fn(r(nil), us, param("value", opt.typ)))
	}
	subscribeNever[*udpSocket](h, udp, "udp-socket", t.udpSocket)
	deny("incoming-datagram-stream", "receive", fn(r(list(t.inDatagram)), self(t.inDatagramStream), param("max-results", wit.U64)))
	subscribeNever[*inDatagramStream](h, udp, "incoming-datagram-stream", t.inDatagramStream)
	deny("outgoing-datagram-stream", "check-send", fn(r(wit.U64), self(t.outDatagramStream)))
	deny("outgoing-datagram-stream", "send", fn(r(wit.U64), self(t.outDatagramStream), param("datagrams", list(t.outDatagram))))
	subscribeNever[*outDatagramStream](h, udp, "outgoing-datagram-stream", t.outDatagramStream)
}
