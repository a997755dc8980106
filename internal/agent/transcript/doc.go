// Package transcript is a session's transcript.jsonl: beside trace.jsonl,
// what the model was sent and answered and what every tool, hook and
// compaction was given and returned, written as the loop's observer
// (package observe) sees each step, so a killed run keeps every step it
// finished. trace.jsonl stays the record Murmur defines; the transcript
// is mur-go's, for reading a run afterwards (`mur trace transcript`,
// `mur trace html`).
//
// # Format
//
// One JSON object per line, appended as it happens, each written with
// one write(2) and never buffered. Every line has "kind" and "time" (RFC
// 3339, nanoseconds). The first line is the session's:
//
//	{"kind":"session","time":…,"version":1,"session_id":"ses_…","capsule":"name","cap":65536}
//
// Then one line per step, with the step's fields (absent when empty or
// zero):
//
//	task_start        task_id, context_id, source, text (the task, when the loop has it)
//	model_start       turn, name (the model), input_tokens (mur's estimate),
//	                  messages, first_message, text (see below)
//	model_text        turn, text, thinking: what had streamed of an answer
//	model_end         turn, name, status, decision, stop_reason, input_tokens,
//	                  output_tokens, usage_reported, duration_ms, text (the
//	                  driver's response), error
//	tool_start        turn, name, tool_kind (wasm, native, shell, skill, unknown), text (the input)
//	tool_end          turn, name, tool_kind, status, duration_ms, exit_code,
//	                  signal, cancelled, text (what the model is told)
//	hook_start        turn, name, hook_event, text
//	hook_end          turn, name, hook_event, status, duration_ms, text, error
//	compaction_start  turn, input_tokens
//	compaction_end    turn, status, duration_ms
//	task_end          task_id, status, turns, input_tokens, output_tokens,
//	                  duration_ms, text (the answer, or why the task failed)
//
// Every entry but the session's carries task_id and context_id when the
// task has them. Turns count from 0.
//
// A model request repeats the whole conversation, so model_start records
// only what is new: text is a JSON array holding the request's messages
// from index first_message on, of messages in all; the ones before it are
// the task's earlier model_start entries'. first_message is 0 when the
// request does not extend the task's previous one (the first turn, a
// reopened task's new attempt, a compaction that replaced the history)
// and, with an active continuation, the request carries only the tail
// the driver has not seen. The system prompt and the tool list, the same
// every turn, are in trace.jsonl's session_start, not here.
//
// model_text lines are written while an answer streams, at most every 4
// KiB or 2 seconds, so a run killed mid-answer keeps what had streamed;
// model_end holds the whole answer, and readers show model_text only for
// a call that has no model_end or one without text.
//
// Each of text and error is cut to the cap (64 KiB, at a UTF-8 boundary);
// a cut entry carries "truncated":true, the cap, and the original sizes
// in text_bytes or error_bytes. Every line is written without the
// session's secrets (the redactor of everything else the session writes),
// before it is cut.
//
// # Trust
//
// The file is in the session directory, where guests write: a reader
// treats it as untrusted. Read refuses a link planted in its place and
// anything but a regular file, bounds each line and the whole, and
// reports each line it cannot take instead of trusting it.
package transcript
