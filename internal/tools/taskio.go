package tools

import (
	"context"

	"github.com/mur-go/mur/engine/wasip2"
)

// TaskIO is what a tool or driver reaches of the A2A task it serves: text
// chunks streamed to the client and a question put to the user. The A2A
// server implements it; outside an A2A task there is none (nil), and then
// chunks are dropped and request-input traps (wit.md §5.3, §5.4).
type TaskIO interface {
	// EmitChunk streams a text (or, with thinking, a thinking) chunk. It
	// cannot fail: a chunk nobody receives is simply lost.
	EmitChunk(ctx context.Context, text string, thinking bool)
	// RequestInput moves the task to input-required with prompt and blocks
	// until the user answers. An error traps the calling guest with its text
	// (e.g. "request-input: task is not in working state", "input-timeout").
	RequestInput(ctx context.Context, prompt string) (string, error)
}

type taskIOKey struct{}

// WithTaskIO returns ctx carrying io for the tool calls made under it; a
// nil io means "outside an A2A task". WasmTool reads it when it builds a
// call's store, so one tool serves many tasks.
func WithTaskIO(ctx context.Context, io TaskIO) context.Context {
	return context.WithValue(ctx, taskIOKey{}, io)
}

// TaskIOFrom returns the TaskIO ctx carries, or nil.
func TaskIOFrom(ctx context.Context) TaskIO {
	io, _ := ctx.Value(taskIOKey{}).(TaskIO)
	return io
}

// ToolStore is the store data of a tool or driver call made by WasmTool.
type ToolStore struct {
	WASI *wasip2.Ctx
	IO   TaskIO
}
