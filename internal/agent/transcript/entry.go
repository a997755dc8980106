package transcript

import (
	"slices"
	"time"
	"unicode/utf8"
)

// FileName is the transcript's name in the session directory.
const FileName = "transcript.jsonl"

// Version is the format's version, in the session line.
const Version = 1

// Cap is the most bytes of text, and of error, one entry keeps.
const Cap = 64 << 10

// KindSession is the first line's kind; the others are observe.Kind's
// names.
const KindSession = "session"

// kinds are the entry kinds a reader takes.
var kinds = []string{KindSession, "task_start", "task_end", "model_start", "model_text", "model_end",
	"tool_start", "tool_end", "hook_start", "hook_end", "compaction_start", "compaction_end"}

// Entry is one line. encoding/json writes the fields in this order.
type Entry struct {
	Kind string    `json:"kind"`
	Time time.Time `json:"time"`

	// The session line's.
	Version   int    `json:"version,omitzero"`
	SessionID string `json:"session_id,omitzero"`
	Capsule   string `json:"capsule,omitzero"`

	TaskID    string `json:"task_id,omitzero"`
	ContextID string `json:"context_id,omitzero"`
	Source    string `json:"source,omitzero"`
	// Turn is set on every step inside a turn (all but the session's and
	// the task's lines).
	Turn      *uint32 `json:"turn,omitempty"`
	Name      string  `json:"name,omitzero"`
	ToolKind  string  `json:"tool_kind,omitzero"`
	HookEvent string  `json:"hook_event,omitzero"`

	Status        string  `json:"status,omitzero"`
	Decision      string  `json:"decision,omitzero"`
	StopReason    string  `json:"stop_reason,omitzero"`
	InputTokens   uint64  `json:"input_tokens,omitzero"`
	OutputTokens  uint64  `json:"output_tokens,omitzero"`
	UsageReported bool    `json:"usage_reported,omitzero"`
	Turns         uint32  `json:"turns,omitzero"`
	DurationMS    float64 `json:"duration_ms,omitzero"`
	ExitCode      *int32  `json:"exit_code,omitempty"`
	Signal        string  `json:"signal,omitzero"`
	Cancelled     bool    `json:"cancelled,omitzero"`
	Thinking      bool    `json:"thinking,omitzero"`

	// Messages and FirstMessage are a model_start's: the request's
	// number of messages and the index of the first one in Text.
	Messages     int  `json:"messages,omitzero"`
	FirstMessage *int `json:"first_message,omitempty"`

	Text  string `json:"text,omitzero"`
	Error string `json:"error,omitzero"`
	// Truncated marks an entry whose Text or Error was cut to Cap (given
	// here as the session line gives it); TextBytes and ErrorBytes are
	// the sizes before the cut.
	Truncated  bool `json:"truncated,omitzero"`
	Cap        int  `json:"cap,omitzero"`
	TextBytes  int  `json:"text_bytes,omitzero"`
	ErrorBytes int  `json:"error_bytes,omitzero"`
}

// Duration is the entry's duration_ms as a time.Duration.
func (e *Entry) Duration() time.Duration {
	return time.Duration(e.DurationMS * float64(time.Millisecond))
}

// knownKind reports whether k is an entry kind of this format.
func knownKind(k string) bool { return slices.Contains(kinds, k) }

// cut is s cut to at most n bytes at a UTF-8 boundary, and whether it
// was cut.
func cut(s string, n int) (string, bool) {
	if len(s) <= n {
		return s, false
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i], true
}

// capText cuts e's Text and Error to Cap, recording what was cut.
func (e *Entry) capText() {
	var cutText, cutErr bool
	n, m := len(e.Text), len(e.Error)
	if e.Text, cutText = cut(e.Text, Cap); cutText {
		e.TextBytes = n
	}
	if e.Error, cutErr = cut(e.Error, Cap); cutErr {
		e.ErrorBytes = m
	}
	if cutText || cutErr {
		e.Truncated, e.Cap = true, Cap
	}
}
