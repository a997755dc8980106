// Package httpbound bounds what the clients of one of mur's HTTP servers
// can make it hold: connections (in all and per client address), time (to
// send the headers, the body, or nothing on an idle connection) and memory
// (a body's size, and what all bodies still arriving hold together). The
// A2A server uses it, and mur's other HTTP servers are meant to, so that
// one set of bounds, tested by attack once, covers them all. RATIONALE.md
// says why each bound is what it is.
//
// A server takes three things from Bounds: Listener, which caps
// connections; Server, an http.Server with the header and idle timeouts;
// and Body, the middleware that reads a request's whole body within its
// deadline and its share of memory before the handler sees it. Body goes
// after any authentication, so that no byte of an unauthenticated body is
// ever read.
package httpbound
