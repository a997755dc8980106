package traceview

// Trace is what the trace commands keep of one trace.jsonl, records in
// file order. Strings are fit for a terminal (see clean).
type Trace struct {
	// Path names the file in messages.
	Path string
	// Events counts the lines that held an event, unknown ones included.
	Events int
	// Start and End are the last session_start and session_end (a run
	// writes one per attempt; the last session_end has the run's totals).
	Start *Start
	End   *End

	Inferences []Inference
	ToolCalls  []ToolCall
	Redundant  []Redundant
	SkillCalls []SkillCall
	Shells     []Shell
	// Compaction is the last compaction, nil when none fired.
	Compaction *Compaction
	// Tasks are the task_end records that close a task_start, in order.
	Tasks   []Task
	Reopens []Reopen

	// firstCall is the duration of each turn's first tool or skill call.
	firstCall map[uint32]uint64
}

// Start is session_start.
type Start struct {
	SessionID, Capsule, Version, Model string
	MaxTurns                           uint32
	// Warnings are mur-go's security_warnings: the launch W-SEC warnings.
	Warnings []Warning
}

// Warning is one of session_start's security_warnings.
type Warning struct{ Code, Message string }

// End is session_end.
type End struct {
	Turns                     uint32
	InputTokens, OutputTokens uint64
	ToolCalls, ShellCalls     uint32
	DurationMS                uint64
	ExitStatus                string
}

// Inference is one inference record.
type Inference struct {
	Turn     uint32
	Decision string
	// Tool is the called tool's name; "" when the record has none.
	Tool    string
	HasTool bool
}

// ToolCall is one tool_call record.
type ToolCall struct {
	Turn       uint32
	Tool       string
	Status     string
	DurationMS uint64
	// Input is the input as JSON, cut for one line; "" when the record
	// has none. Summary is its first string, quoted; "" when none.
	Input, Summary string
	// Beyond Murmur 0.2.0: a call the run's or its task's cancellation
	// interrupted, and a native tool's exit code and killing signal.
	Cancelled   bool
	ExitCode    int32
	HasExitCode bool
	Signal      string
}

// OK reports whether the call succeeded.
func (c ToolCall) OK() bool { return c.Status == "ok" }

// SkillCall is one skill_call record.
type SkillCall struct {
	Turn       uint32
	Skill      string
	Status     string
	DurationMS uint64
}

// OK reports whether the call succeeded.
func (c SkillCall) OK() bool { return c.Status == "ok" }

// Shell is one shell record.
type Shell struct {
	ExitCode   int32
	DurationMS uint64
}

// Compaction is one compaction record.
type Compaction struct {
	Turn                      uint32
	TokensBefore, TokensAfter uint64
}

// Task is one task, from its task_start and task_end.
type Task struct {
	ID, ContextID, Source, ExitStatus string
	DurationMS                        uint64
	Turns                             uint32
	InputTokens, OutputTokens         uint64
	ToolCalls, ShellCalls             uint32
	ReopenCount                       uint32
}

// Reopen is one task_reopened record.
type Reopen struct {
	Number uint32
	Hook   string
	Reason string
}
