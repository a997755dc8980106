package process

import (
	"encoding/json"
	"time"

	"github.com/mur-go/mur/internal/serve/mcp"
)

// recorder turns what a dialect's parser saw into turns, trace records
// and the outcome; both dialects share it.
type recorder struct {
	trace    Trace
	maxTurns uint32
	now      func() time.Time

	turns, toolCalls uint32
	pending          map[string]pendingCall

	// result is the result text once one was reported; failure is the
	// CLI's own error report, if any.
	result  *string
	failure string
}

type pendingCall struct {
	turn   uint32
	name   string
	input  string
	opened time.Time
}

func newRecorder(trace Trace, maxTurns uint32, now func() time.Time) *recorder {
	return &recorder{trace: trace, maxTurns: maxTurns, now: now, pending: map[string]pendingCall{}}
}

// turn counts one model turn that asked for tools (their names, in
// order) or ended; one past max_turns fails the run before it is traced.
func (r *recorder) turn(tools []string) error {
	if r.turns >= r.maxTurns {
		return failure(KindMaxTurns, nil, "the agent CLI exceeded inference.max_turns (%d)", r.maxTurns)
	}
	// Turns are 0-based within the run, as the loop's (session.md §3.1).
	rec := InferenceRecord{Turn: r.turns, Decision: "end_turn"}
	r.turns++
	if len(tools) > 0 {
		rec.Decision, rec.ToolName = "tool_call", tools[0]
	}
	if err := r.trace.Inference(rec); err != nil {
		return failure(KindTrace, err, "trace write failed: %v", err)
	}
	return nil
}

// callStarted notes a tool call of the current turn until its result.
func (r *recorder) callStarted(id, name string, input json.RawMessage) {
	in, err := mcp.CanonicalInput(input)
	if err != nil {
		in = "{}"
	}
	r.pending[id] = pendingCall{turn: max(r.turns, 1) - 1, name: name, input: in, opened: r.now()}
}

// callEnded traces the call id started, if it did; a result for a call
// never seen is not one of this session's tool calls.
func (r *recorder) callEnded(id, output string, isError bool) error {
	c, ok := r.pending[id]
	if !ok {
		return nil
	}
	delete(r.pending, id)
	status := "ok"
	if isError {
		status = "error"
	}
	err := r.trace.ToolCall(ToolCallRecord{Turn: c.turn, ToolName: c.name, Input: json.RawMessage(c.input),
		InputBytes: uint64(len(c.input)), Output: output, OutputBytes: uint64(len(output)),
		Duration: r.now().Sub(c.opened), Status: status})
	if err != nil {
		return failure(KindTrace, err, "trace write failed: %v", err)
	}
	r.toolCalls++ // total_tool_calls counts tool_call lines
	return nil
}
