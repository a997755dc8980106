package process

import (
	"encoding/json"
	"log/slog"
	"time"

	"github.com/mur-go/mur/internal/sandbox"
	"github.com/mur-go/mur/internal/serve/mcp"
	"github.com/mur-go/mur/internal/stage"
	"github.com/mur-go/mur/internal/tools"
)

// DefaultTimeout bounds one CLI run (session.md §6).
const DefaultTimeout = 600 * time.Second

// Dispatcher runs one tool call the way the loop does: the bridge's is
// the MCP server's (internal/serve/mcp).
type Dispatcher = mcp.Dispatcher

// ToolSpec is one inventory entry the bridge offers.
type ToolSpec = mcp.Tool

// Trace receives the records of trace.jsonl this transport produces, in
// order; the writer adds the common fields, the run-wide totals and
// duration. An error fails the run (E-RUN-007).
type Trace interface {
	Inference(InferenceRecord) error
	ToolCall(ToolCallRecord) error
	SessionEnd(SessionEndRecord) error
}

// InferenceRecord is an inference line: 0 tokens always.
type InferenceRecord struct {
	Turn uint32
	// Decision is tool_call or end_turn; ToolName the first tool's name
	// for tool_call ("" is null).
	Decision, ToolName string
}

// ToolCallRecord is a tool_call line, paired from the event stream.
type ToolCallRecord struct {
	Turn     uint32
	ToolName string
	// Input is the call's input object (compact, sorted keys).
	Input      json.RawMessage
	InputBytes uint64
	// Output is the result text; the writer keeps it only with
	// trace.include_tool_output.
	Output      string
	OutputBytes uint64
	Duration    time.Duration
	// Status is ok or error.
	Status string
}

// SessionEndRecord is this run's session_end: this run's counts (the
// writer adds earlier attempts' for its cumulative totals).
type SessionEndRecord struct {
	Turns, ToolCalls uint32
	// ExitStatus is ok, failed, or cancelled when the caller's context
	// ended the run.
	ExitStatus string
}

// Options are one CLI run's inputs.
type Options struct {
	// Workdir is the session's: the CLI runs in its accessible workdir,
	// out/result.txt is written through it and the bridge's token joins
	// its secrets while the bridge serves.
	Workdir stage.Workdir
	// Command is inference.command (default claude); base name codex
	// selects the codex dialect. Model is inference.model ("" ⇒ the
	// CLI's default); MaxTurns inference.max_turns (0 ⇒ 10).
	Command, Model string
	MaxTurns       uint32
	// Task is the task text.
	Task string
	// Notices are the [Capsule] block's two notices (agent.Notices);
	// Prompt the resolved system prompt ("" when none).
	Notices, Prompt string
	// Tools are served over the bridge and executed through Dispatcher;
	// none means the CLI gets no tools and no bridge is started.
	Tools      []ToolSpec
	Dispatcher Dispatcher
	Trace      Trace
	// Env describes the CLI's environment (security.md §7, as for native
	// tools); its Workdir is set to the accessible workdir.
	Env tools.SubprocessEnv
	// Sandbox starts the CLI under capabilities.resources (nil: mur's
	// own limits).
	Sandbox *sandbox.Trampoline
	// Timeout bounds the run; 0 means DefaultTimeout.
	Timeout time.Duration
	// Log receives diagnostics; nil discards them.
	Log *slog.Logger
}

// Result is a successful run: the result text written to out/result.txt
// and what the stream counted.
type Result struct {
	Text             string
	Turns, ToolCalls uint32
}
