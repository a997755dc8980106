package agent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/google/uuid"
	"github.com/mur-go/mur/internal/base/diag"
)

// CLITasks is the task source of `mur run` (session.md §3.8) for
// lifecycle.task_acceptance none, single and queue, without A2A: task.md
// in the accessible workdir is a task; with none there may be no task at
// all; otherwise, when there is no task.md, input.txt is run once as an
// untracked attempt (what Murmur does after its A2A wait times out), and
// with neither the run fails saying how to give one.
type CLITasks struct {
	workdir    string
	acceptance string
	ran, done  bool
}

// NewCLITasks is the CLI source of a session whose accessible workdir is
// workdir, under lifecycle.task_acceptance acceptance.
func NewCLITasks(workdir, acceptance string) *CLITasks {
	return &CLITasks{workdir: workdir, acceptance: acceptance}
}

// Next implements TaskSource.
func (c *CLITasks) Next(ctx context.Context) (Task, bool, error) {
	if err := ctx.Err(); err != nil {
		return Task{}, false, err
	}
	if c.done {
		return Task{}, false, nil
	}
	fi, err := os.Lstat(c.path(taskFile))
	switch {
	case err == nil:
		c.ran = true
		return Task{ID: NewID("tsk_"), ContextID: NewID("ctx_"), Source: "task_md", InputBytes: uint64(fi.Size())}, true, nil
	case !errors.Is(err, os.ErrNotExist):
		return Task{}, false, &diag.Error{Code: CodeRun, Err: diag.Mark(err, KindTask), Msg: fmt.Sprintf("reading the task: %v", err)}
	case c.ran || c.acceptance == "none":
		return Task{}, false, nil
	}
	c.done = true
	if _, err := os.Lstat(c.path(inputFile)); err == nil {
		return Task{}, true, nil
	}
	return Task{}, false, &diag.Error{Code: CodeRun, Err: diag.Mark(os.ErrNotExist, KindTask),
		Msg: fmt.Sprintf("no task for the agent: neither %s nor %s exists; pass one with mur run --task TEXT|FILE", c.path(taskFile), c.path(inputFile))}
}

// Done implements TaskSource: single and none stop after a task, queue
// stops after a failure and otherwise deletes task.md and looks again.
func (c *CLITasks) Done(_ context.Context, _ Task, r TaskResult) {
	if c.acceptance != "queue" || r.Err != nil || r.ExitStatus != exitOK {
		c.done = true
		return
	}
	if err := os.Remove(c.path(taskFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
		c.done = true
	}
}

func (c *CLITasks) path(name string) string {
	return c.workdir + string(os.PathSeparator) + name
}

// NewID is prefix + the 32 lowercase hex digits of a UUIDv7 (session.md
// §9: tsk_ and ctx_ ids).
func NewID(prefix string) string {
	return prefix + strings.ReplaceAll(uuid.Must(uuid.NewV7()).String(), "-", "")
}
