// Package server serves an agent capsule over A2A (a2a-cli.md §2): the
// public protocol v1.0 over JSON-RPC and HTTP+JSON and v0.3 over JSON-RPC,
// through the official Go SDK's transports, on one port; Murmur's own card
// and its stream/watch feed of named SSE events under /murmur. Tasks reach
// the agent loop through Source, an agent.TaskSource honouring the
// capsule's lifecycle (none/single/queue × exit/sleep); the loop's progress
// comes back through each task's agent.Events and tools.TaskIO. Serve is
// the entry point the session calls with the real loop. RATIONALE.md says
// which parts of the SDK are used and why the task execution is our own.
package a2a
