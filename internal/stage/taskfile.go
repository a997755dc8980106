package stage

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/mur-go/mur/internal/base/confined"
)

// TaskFile is task.md's name in the accessible workdir.
const TaskFile = "task.md"

// TaskFiles is the accessible task.md as a served session's task source
// hands tasks over through it, the workdir opened once: a queue capsule
// writes, replaces or deletes task.md at every task. Guests and tools
// write the accessible dir, so every access stays inside it and follows
// no planted link.
type TaskFiles struct {
	dir *confined.Dir
}

// OpenTaskFiles opens dir, a session's accessible workdir, for its
// task.md.
func OpenTaskFiles(dir string) (*TaskFiles, error) {
	d, err := confined.OpenDir(dir)
	if err != nil {
		return nil, fmt.Errorf("opening the workdir for task.md: %w", err)
	}
	return &TaskFiles{dir: d}, nil
}

// Close releases the workdir.
func (t *TaskFiles) Close() error { return t.dir.Close() }

// Write writes text to task.md, as an A2A task starts; it fails on a
// link planted at task.md instead of following it.
func (t *TaskFiles) Write(text string) error {
	return t.dir.WriteFile(TaskFile, []byte(text), 0o644, os.O_CREATE|os.O_TRUNC)
}

// Replace replaces the task.md the last queued task left with text: the
// same as deleting it and writing a new one (whatever the task planted
// there, a link, a FIFO, a second name of another file, is removed, never
// written through or waited on), but a plain file of its own is written
// over in place, which ext4 makes far cheaper than a new file right after
// a delete (confined.Replace).
func (t *TaskFiles) Replace(text string) error {
	return t.dir.Replace(TaskFile, []byte(text), 0o644)
}

// Remove deletes task.md between queued tasks; a missing file is not an
// error. Remove unlinks a planted link itself, never its target.
func (t *TaskFiles) Remove() error {
	if err := t.dir.Root().Remove(TaskFile); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// Size is task.md's size; ok is false when there is no regular task.md
// (absent, or a planted link, which is never read).
func (t *TaskFiles) Size() (size int64, ok bool) {
	fi, err := t.dir.Root().Lstat(TaskFile)
	if err != nil || !fi.Mode().IsRegular() {
		return 0, false
	}
	return fi.Size(), true
}
