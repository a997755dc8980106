package tools

import "fmt"

// ToolContract is the exact versioned instance a tool or driver exports.
// Both versions are hosted side by side (spec README decision 1): 0.2.0 adds
// attachments to tool-result, everything else is identical.
type ToolContract string

// The tool contracts mur-go binds, by exact name only.
const (
	ToolRun010 ToolContract = "murmur:tool/run@0.1.0"
	ToolRun020 ToolContract = "murmur:tool/run@0.2.0"
)

// Export is the full export name of the contract's run function.
func (c ToolContract) Export() string { return string(c) + "#run" }

// defaultToolExport is the contract named when a component exports none.
const defaultToolExport = ToolRun010

// Status is murmur:tool's status enum.
type Status uint8

// Status cases in canonical-ABI order.
const (
	StatusPassed Status = iota
	StatusFailed
	StatusError
)

func (s Status) String() string {
	switch s {
	case StatusPassed:
		return "passed"
	case StatusFailed:
		return "failed"
	case StatusError:
		return "error"
	}
	return fmt.Sprintf("status(%d)", uint8(s))
}

// ToolInput is murmur:tool's tool-input record.
type ToolInput struct {
	Data    *string
	LogPath *string
}

// Pair is one metadata entry, tuple<string, string>.
type Pair struct {
	Key, Value string
}

// Attachment is murmur:tool@0.2.0's attachment record.
type Attachment struct {
	MediaType string
	Path      string
}

// ToolResult is murmur:tool's tool-result in either version: Attachments
// exist only in 0.2.0 and are dropped when a result is handed on as 0.1.0
// (which is what tool-registry/invoke returns).
type ToolResult struct {
	Status      Status
	Summary     *string
	Data        *string
	DataPath    *string
	Truncated   bool
	Metadata    []Pair
	Attachments []Attachment
	// Exit is how a native tool's process ended (nil for every other
	// tool). It is the runtime's own observation, never part of the WIT
	// value, so no tool can forge what the trace records from it.
	Exit *Exit
}

// Exit is how a subprocess ended: its exit code as a shell reports it
// (128+N when signal N killed it) and, when a signal did, its name
// (SIGKILL, SIGSEGV).
type Exit struct {
	Code   int32
	Signal string
}

// Str returns a pointer to s, for the option<string> fields.
func Str(s string) *string { return &s }
