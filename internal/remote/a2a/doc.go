// Package a2a is Murmur's A2A client side: the client behind a script
// capsule's murmur:message/send and the user-driven clients of mur send,
// watch, stop and cancel (OneShot, Watch, ServingSession, CancelTask).
//
// They speak A2A 1.0 first, through the official Go SDK, and 0.3 where the
// peer speaks only that (discover.go states the rule). Every request one of
// them makes, the agent card, each endpoint it names and every redirect
// hop, goes through one guard (transport.go): for a capsule, its network
// policy on the URL and the pinned egress of wasi:http on the dial; the
// bearer token only to the peer's own origin; the traceparent of the
// trace the request belongs to (trace.go); a bound on replies. https peers
// are verified against the system's roots. RATIONALE.md says why. The
// server is a2a/server.
package a2a
