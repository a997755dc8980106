package agent

// Events receive what the loop does for one task as it happens
// (session.md §11.1); the A2A server streams them, the CLI passes
// NoEvents. Text chunks a driver emits reach the task through its
// tools.TaskIO, not through Events.
type Events interface {
	// Status is a task status change: working once per turn ("inference
	// turn <n>"), then a final completed (Response holds the text) or
	// failed.
	Status(s StatusEvent)
	// Artifact follows each tool call (ToolName, its result text) and
	// carries hook artifacts at completion (ToolName is the hook).
	Artifact(toolName, content string)
	// Text is a final text event: empty to close a streamed turn, or the
	// whole text when the driver streamed nothing.
	Text(text string)
}

// StatusEvent is one status update; State is working, completed or
// failed.
type StatusEvent struct {
	State    string
	Message  string
	Response *string
	Final    bool
}

// NoEvents discards every event.
type NoEvents struct{}

func (NoEvents) Status(StatusEvent)      {}
func (NoEvents) Artifact(string, string) {}
func (NoEvents) Text(string)             {}
