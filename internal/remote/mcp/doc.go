// Package mcp is the client side of the MCP servers a capsule declares
// (the manifest's mcp block, a mur-go extension): each server's tools
// become tools the agent's model sees, named mcp__<server>__<tool>
// (Servers, a tools.Catalog), dispatched and traced like the others.
//
// A local server is a subprocess speaking MCP on stdio, started through
// the one spawn path (tools.Process) with the shell commands' trampoline:
// their rlimits, cgroup scope, Landlock, seccomp and network namespace.
// A remote server is reached over streamable HTTP from the host, through
// the pinned egress of wasi:http under the capsule's network rules, with
// its headers (credentials) sent to its own origin only. Both speak
// through the official Go SDK's client. RATIONALE.md says why.
package mcp
