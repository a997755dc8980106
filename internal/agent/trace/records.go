package trace

// Event types (session.md §10).
const (
	TypeSessionStart      = "session_start"
	TypeInference         = "inference"
	TypeToolCall          = "tool_call"
	TypeSkillCall         = "skill_call"
	TypeShell             = "shell"
	TypeCompaction        = "compaction"
	TypeHookDispatchError = "hook_dispatch_error"
	TypeSessionEnd        = "session_end"
	TypeTaskStart         = "task_start"
	TypeTaskEnd           = "task_end"
	TypeTaskReopened      = "task_reopened"
	TypeA2ATaskReceived   = "a2a_task_received"
	// Beyond Murmur 0.2.0 (session.md §13); readers skip unknown types.
	TypeInferenceRetry      = "inference_retry"
	TypeSpendCeilingReached = "spend_ceiling_reached"
	TypeInferenceUsage      = "inference_usage"
)

// Common is the three fields every line starts with. Records embed it
// first; encoding/json writes struct fields in declaration order, which is
// the order the spec lists.
type Common struct {
	EventType string `json:"event_type"`
	SessionID string `json:"session_id"`
	Timestamp int64  `json:"timestamp"`
}

// SessionStart opens an attempt.
type SessionStart struct {
	Common
	CapsuleName         string          `json:"capsule_name"`
	CapsuleVersion      string          `json:"capsule_version"`
	Model               string          `json:"model"`
	MaxTurns            uint32          `json:"max_turns"`
	Capabilities        []string        `json:"capabilities"`
	ToolsDeclared       []string        `json:"tools_declared"`
	ContainmentDeclared string          `json:"containment_declared"`
	ContainmentAchieved string          `json:"containment_achieved"`
	WorkdirExec         bool            `json:"workdir_exec"`
	EffectiveGrants     EffectiveGrants `json:"effective_grants"`
	SystemPromptSource  string          `json:"system_prompt_source"`
	SystemPromptSHA256  *string         `json:"system_prompt_sha256"`
	SystemPrompt        *string         `json:"system_prompt,omitempty"`
	// SecurityWarnings are the launch W-SEC warnings logs/bootstrap.log
	// records (security.md §13), beside the grants they qualify: a
	// session run without an aggregate bound on its subprocesses
	// (W-SEC-010) says so in its trace. mur-go's; omitted when none.
	SecurityWarnings []Warning `json:"security_warnings,omitempty"`
}

// Warning is one W-SEC warning in session_start.
type Warning struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// EffectiveGrants is session_start's effective_grants object, the very
// object `mur run --explain-scope --json` prints for the capsule (Murmur
// compares the two whole): the spec's keys, then mur-go's tier and
// subprocess, which the explanation and the trace both carry.
type EffectiveGrants struct {
	DeclaredContainment string  `json:"declared_containment"`
	AchievedContainment string  `json:"achieved_containment"`
	FloorMet            bool    `json:"floor_met"`
	ShortfallReason     *string `json:"shortfall_reason,omitempty"`
	// EnforcementTier is the host tier's mechanism (§9.1: the host's, not
	// the applied one); Tier the applied tier's name.
	EnforcementTier          string               `json:"enforcement_tier"`
	Tier                     string               `json:"tier"`
	FilesystemScope          *string              `json:"filesystem_scope"`
	WorkdirExec              bool                 `json:"workdir_exec"`
	NetworkAllow             []string             `json:"network_allow"`
	UnixSockets              bool                 `json:"unix_sockets"`
	ShellAllow               []string             `json:"shell_allow"`
	SpawnAllow               []string             `json:"spawn_allow"`
	EnvAllow                 []string             `json:"env_allow"`
	InterpreterRuntimeGrants []InterpreterRuntime `json:"interpreter_runtime_grants"`
	StagedRuntimeGrants      []StagedRuntime      `json:"staged_runtime_grants"`
	// Subprocess says what a native subprocess gets on this host.
	Subprocess SubprocessReport `json:"subprocess"`
}

// SubprocessReport is the mechanism detail behind the tier.
type SubprocessReport struct {
	Landlock         bool   `json:"landlock"`
	LandlockABI      int    `json:"landlock_abi"`
	Seccomp          bool   `json:"seccomp"`
	NetworkNamespace bool   `json:"network_namespace"`
	Egress           string `json:"egress"`
	// Cgroup is how the session's cgroup scope is built (§12.2):
	// "cgroup2", "cgroup1", or "none (<reason>)".
	Cgroup string `json:"cgroup"`
}

// InterpreterRuntime is one capabilities.shell.interpreter_runtime grant.
type InterpreterRuntime struct {
	Binary string           `json:"binary"`
	Dirs   []InterpreterDir `json:"dirs"`
}

// InterpreterDir is one directory of an interpreter_runtime grant.
type InterpreterDir struct {
	Path    string `json:"path"`
	ListDir bool   `json:"list_dir"`
}

// StagedRuntime is one capabilities.shell.staged_runtime grant.
type StagedRuntime struct {
	Binary     string `json:"binary"`
	SourcePath string `json:"source_path"`
	Pin        string `json:"pin"`
}

// Inference is one driver (or hook run-inference) call.
type Inference struct {
	Common
	Turn         uint32  `json:"turn"`
	InputTokens  uint64  `json:"input_tokens"`
	OutputTokens uint64  `json:"output_tokens"`
	Decision     string  `json:"decision"`
	ToolName     *string `json:"tool_name"`
	Origin       *string `json:"origin,omitempty"`
	Model        *string `json:"model,omitempty"`
}

// ToolCall is one dispatched tool call.
type ToolCall struct {
	Common
	Turn        uint32  `json:"turn"`
	ToolName    string  `json:"tool_name"`
	Input       any     `json:"input"`
	InputBytes  uint64  `json:"input_bytes"`
	Output      *string `json:"output,omitempty"`
	OutputBytes uint64  `json:"output_bytes"`
	DurationMS  uint64  `json:"duration_ms"`
	Status      string  `json:"status"`
	StateEffect *string `json:"state_effect,omitempty"`
	ResourceID  *string `json:"resource_id,omitempty"`
	// Beyond Murmur 0.2.0, after its fields: a native tool's exit code
	// (128+N for signal N, as a shell reports it) and the signal that
	// killed it; Cancelled marks a call the run's or its task's
	// cancellation interrupted (its status is error).
	ExitCode  *int32  `json:"exit_code,omitempty"`
	Signal    *string `json:"signal,omitempty"`
	Cancelled bool    `json:"cancelled,omitempty"`
}

// SkillCall is one call of a skill (not counted as a tool call).
type SkillCall struct {
	Common
	Turn        uint32 `json:"turn"`
	SkillName   string `json:"skill_name"`
	OutputBytes uint64 `json:"output_bytes"`
	DurationMS  uint64 `json:"duration_ms"`
	Status      string `json:"status"`
}

// Shell follows the tool_call of a shell command that ran.
type Shell struct {
	Common
	Turn          uint32  `json:"turn"`
	Binary        string  `json:"binary"`
	Command       string  `json:"command"`
	ExitCode      int32   `json:"exit_code"`
	StdoutBytes   uint64  `json:"stdout_bytes"`
	StderrBytes   uint64  `json:"stderr_bytes"`
	DurationMS    uint64  `json:"duration_ms"`
	ResourceLimit *string `json:"resource_limit,omitempty"`
}

// Compaction is a committed context replacement.
type Compaction struct {
	Common
	Turn         uint32 `json:"turn"`
	TokensBefore uint64 `json:"tokens_before"`
	TokensAfter  uint64 `json:"tokens_after"`
}

// HookDispatchError is one hook fault.
type HookDispatchError struct {
	Common
	HookName string `json:"hook_name"`
	Event    string `json:"event"`
	Arm      string `json:"arm"`
}

// SessionEnd closes an attempt (or, once, the whole run); totals are
// the run's. ExitStatus is Murmur's ok, failed or max_turns_reached, or
// (beyond Murmur 0.2.0) cancelled: an attempt a cancellation interrupted,
// or a run stopped (mur stop, a signal) after its attempts, recorded once
// at its end.
type SessionEnd struct {
	Common
	TotalTurns        uint32 `json:"total_turns"`
	TotalInputTokens  uint64 `json:"total_input_tokens"`
	TotalOutputTokens uint64 `json:"total_output_tokens"`
	TotalToolCalls    uint32 `json:"total_tool_calls"`
	TotalShellCalls   uint32 `json:"total_shell_calls"`
	DurationMS        uint64 `json:"duration_ms"`
	ExitStatus        string `json:"exit_status"`
}

// TaskStart opens a task.
type TaskStart struct {
	Common
	TaskID            string `json:"task_id"`
	ContextID         string `json:"context_id"`
	Source            string `json:"source"`
	MessagePartsBytes uint64 `json:"message_parts_bytes"`
}

// TaskEnd closes a task; counts are the task's, across its attempts.
// ExitStatus is Murmur's ok, failed or reopen_budget_exhausted, or
// (beyond Murmur 0.2.0) cancelled: A2A CancelTask, or the run stopped.
type TaskEnd struct {
	Common
	TaskID       string `json:"task_id"`
	ExitStatus   string `json:"exit_status"`
	DurationMS   uint64 `json:"duration_ms"`
	Turns        uint32 `json:"turns"`
	InputTokens  uint64 `json:"input_tokens"`
	OutputTokens uint64 `json:"output_tokens"`
	ToolCalls    uint32 `json:"tool_calls"`
	ShellCalls   uint32 `json:"shell_calls"`
	ReopenCount  uint32 `json:"reopen_count"`
}

// TaskReopened sits between two attempts of a task.
type TaskReopened struct {
	Common
	TaskID       string `json:"task_id"`
	HookName     string `json:"hook_name"`
	Reason       string `json:"reason"`
	ReopenNumber uint32 `json:"reopen_number"`
}

// A2ATaskReceived precedes the task_start of an A2A task.
type A2ATaskReceived struct {
	Common
	TaskID                string  `json:"task_id"`
	ContextID             string  `json:"context_id"`
	MessageID             string  `json:"message_id"`
	TraceparentFromCaller *string `json:"traceparent_from_caller"`
}

// InferenceRetry (beyond Murmur 0.2.0, session.md §13) is a failed driver
// call that is sent again: one per retry, before its backoff.
type InferenceRetry struct {
	Common
	// Origin is "turn" for the loop's calls, "hook:<name>" for a hook's.
	Origin string `json:"origin"`
	// Turn is the loop's turn (a hook's call: the turn it ran in).
	Turn uint32 `json:"turn"`
	// Attempt is the failed call's number, 1-based.
	Attempt        uint32  `json:"attempt"`
	MaxRetries     uint32  `json:"max_retries"`
	Reason         string  `json:"reason"`
	ProviderStatus *uint16 `json:"provider_status"`
	Error          string  `json:"error"`
	DelayMS        uint64  `json:"delay_ms"`
	RetryAfterMS   *uint64 `json:"retry_after_ms"`
	ChargedTokens  uint64  `json:"charged_tokens"`
}

// SpendCeilingReached (beyond Murmur 0.2.0) is the call the spend meter
// refused; the session makes no driver call after it.
type SpendCeilingReached struct {
	Common
	Origin           string `json:"origin"`
	Turn             uint32 `json:"turn"`
	MaxSessionTokens uint64 `json:"max_session_tokens"`
	SpentTokens      uint64 `json:"spent_tokens"`
	RequestedTokens  uint64 `json:"requested_tokens"`
}

// InferenceUsage (beyond Murmur 0.2.0) is the provider's own usage of a
// call, written beside its inference record (whose counts stay the
// runtime's estimates, §13).
type InferenceUsage struct {
	Common
	Origin           string  `json:"origin"`
	Turn             uint32  `json:"turn"`
	InputTokens      *uint64 `json:"input_tokens"`
	OutputTokens     *uint64 `json:"output_tokens"`
	CachedTokens     *uint64 `json:"cached_tokens"`
	CacheWriteTokens *uint64 `json:"cache_write_tokens"`
	ThinkingTokens   *uint64 `json:"thinking_tokens"`
}
