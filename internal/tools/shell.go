package tools

import (
	"context"
	"time"
)

// ShellRunner runs one capabilities.shell.allow command for the agent
// loop (session.md §2.6): binary is the allowlisted name the model called,
// input the tool_call input JSON. An error is a session-fatal dispatch
// failure; everything a command does, including failing, is an outcome.
type ShellRunner interface {
	RunShell(ctx context.Context, binary, input string) (ShellOutcome, error)
}

// ShellOutcome is one shell command's result: the text and error flag
// the model sees, and what the trace's shell record and the on-shell hook
// carry. Ran is false when the command never started (bad input, spawn
// refused); such a call has no shell record.
type ShellOutcome struct {
	Text    string
	IsError bool
	Ran     bool
	// Binary is the resolved absolute path (or the bare name); Command
	// the command text as given.
	Binary, Command string
	ExitCode        int32
	// Stdout and Stderr are the streams after 16 KiB truncation.
	Stdout, Stderr string
	Duration       time.Duration
	// Truncated is set when the full output went to LogPath (relative
	// to the accessible workdir).
	Truncated bool
	LogPath   string
	// ResourceLimit names the limit that killed the command, if any:
	// cpu_seconds, max_file_size_bytes, cgroup_memory_bytes,
	// cgroup_pids_max.
	ResourceLimit string
}
