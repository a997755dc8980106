// Package agent runs an agent capsule's task: one attempt of the inference
// loop (session.md §3.1–§3.2). Each turn builds the driver request
// (§1.1), calls the driver in a fresh store, parses its response (§1.3),
// dispatches the tool calls it asks for to the staged tools (§2.4) and
// feeds their results back (§2.5), until the model ends its turn or the
// turn budget runs out. The outcome is written to out/result.txt.
//
// Not here yet: trace.jsonl, hooks, compaction, continuation, threaded
// conversations, task reopening, token counting and shell tools.
package agent
