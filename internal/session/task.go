package session

import (
	"fmt"

	"github.com/mur-go/mur/internal/agent/tokens"
	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/manifest"
)

// DefaultMaxTaskBytes is the longest task a run takes unless its caller
// raises it (mur run --max-task-bytes): a task is read whole and sent
// whole, so an unbounded one costs memory and tokens without bound.
const DefaultMaxTaskBytes = 1 << 20

// DefaultContextTokens is the context a model is taken to have where
// context.max_tokens does not say: the smallest of the common
// hosted models' windows.
const DefaultContextTokens = 128_000

// Codes of a task refused or warned about.
const (
	CodeTaskTooLarge diag.Code = "E-IO-003"
	// WarnTaskContext (mur-go's own): the task alone takes most of the
	// model's context.
	WarnTaskContext = "W-RUN-001"
)

// CheckTaskSize refuses a task of size bytes longer than max (0:
// DefaultMaxTaskBytes).
func CheckTaskSize(size, max int64) error {
	if max <= 0 {
		max = DefaultMaxTaskBytes
	}
	if size <= max {
		return nil
	}
	return diag.New(CodeTaskTooLarge, "the task is %d bytes, more than the %d a run takes", size, max).
		WithHint("shorten it, let the agent read the material from its workdir, or raise the limit with --max-task-bytes")
}

// taskContextWarning is W-RUN-001 when task alone would fill more than
// half of the model's context: the model would have little room left
// to work, or refuse the request outright. The context is
// context.max_tokens, else DefaultContextTokens.
func taskContextWarning(c *manifest.Capsule, task string) (manifest.Warning, bool) {
	window, from := uint64(DefaultContextTokens), "assumed: context.max_tokens is not set"
	if n := c.ContextMaxTokens; n != nil && *n > 0 {
		window, from = uint64(*n), "context.max_tokens"
	}
	// A token is at least a byte: a task of no more bytes than the bound
	// needs no counting.
	if uint64(len(task)) <= window/2 {
		return manifest.Warning{}, false
	}
	n := tokens.New().Count(task)
	if n <= window/2 {
		return manifest.Warning{}, false
	}
	return manifest.Warning{Code: WarnTaskContext, Path: "context.max_tokens",
		Msg: fmt.Sprintf("the task alone is about %d tokens, more than half of the model's context (%d tokens, %s)", n, window, from),
		Hint: "shorten the task or let the agent read the material from its workdir; " +
			"set context.max_tokens to the model's context if it is larger"}, true
}
