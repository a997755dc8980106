// Package agent runs an agent capsule's session loop (session.md §3):
// Run opens trace.jsonl and takes tasks from a TaskSource; each task
// runs attempts (reopened when a hook asks, within budget); each attempt
// calls the driver turn by turn in the exact order of §3.2, dispatching
// the model's tool calls (§2.4) and feeding their results back (§2.5).
// Every step that the spec records is written to the trace as it happens,
// every hook point is called through Hooks, and A2A progress goes to the
// task's Events.
//
// Murmur counts an attempt that ended with a failure it recorded (driver
// error, stop_reason error, turns exhausted, …) as a success; here the
// trace and out/result.txt say what Murmur's say, but the task's result
// carries the failure (a coded error marked with its Kind), so `mur run`
// fails.
package agent
