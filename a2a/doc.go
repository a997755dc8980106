// Package a2a is Murmur's A2A client side: the client behind a script
// capsule's murmur:message/send (the peer is checked against the
// capsule's network policy before anything is dialled, the connection
// goes through the same pinned egress as wasi:http, and redirects are
// never followed), and the user-driven clients of mur send, watch, stop
// and cancel (OneShot, Watch, ServingSession, CancelTask), which speak
// the public protocol through the official Go SDK. The server is
// a2a/server.
package a2a
