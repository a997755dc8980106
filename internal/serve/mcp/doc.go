// Package mcp serves a capsule's tools over the Model Context Protocol
// with the official Go SDK: to any MCP client over stdio or streamable
// HTTP (`mur mcp serve`), and to an agent CLI over the loopback bridge of
// transport: process. It knows no capsule: each call goes to a
// Dispatcher, which for mur is the agent loop's dispatch, so grants,
// containment, redaction, hooks and the trace are the loop's.
//
// The server dispatches one call at a time, as the loop does. Over HTTP
// every request must carry the bearer token, compared in constant time
// before a byte of its body is read, and the server runs behind
// internal/base/httpbound's connection, time and body bounds; it never
// serves without a token. RATIONALE.md says why.
package mcp
