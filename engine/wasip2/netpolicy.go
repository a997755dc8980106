package wasip2

// NetPolicy decides where a guest's network traffic may go. The WASI host
// knows no rule syntax: the embedder (Murmur's runtime, a test) supplies
// the decision, and the egress enforces it. A nil NetPolicy in Grants
// means no network at all.
type NetPolicy interface {
	// AllowRequest reports whether a request to scheme://host:port may go,
	// judged by name before any lookup. scheme and host arrive lower-cased,
	// an IPv6 host in brackets.
	AllowRequest(scheme, host string, port uint16) bool
	// AdmitDial returns the entry that admits a connection to host:port
	// under any scheme (the request was checked by scheme already), or ok
	// false. The egress names that entry when it refuses the address a
	// name resolved to; an address literal the entry admits is dialled as
	// written, since the entry named the address itself.
	AdmitDial(host string, port uint16) (entry string, ok bool)
}
