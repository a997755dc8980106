// Package a2a speaks the public A2A protocol (JSON-RPC over HTTP) for
// Murmur. For now it is the client behind a script capsule's
// murmur:message/send: the peer is checked against the capsule's network
// policy before anything is dialled, the connection goes through the same
// pinned egress as wasi:http, and redirects are never followed. The A2A
// server comes later and will live here too.
package a2a
