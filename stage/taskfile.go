package stage

import (
	"errors"
	"io/fs"
	"os"

	"github.com/mur-go/mur/internal/confined"
)

// TaskFile is task.md's name in the accessible workdir.
const TaskFile = "task.md"

// WriteTaskFile replaces the accessible task.md with text, as an A2A task
// starts. Guests and tools write the accessible dir, so the write stays
// inside it and fails on a link planted at task.md instead of following it.
func (s *Session) WriteTaskFile(text string) error {
	root, err := os.OpenRoot(s.AccessibleDir)
	if err != nil {
		return err
	}
	defer root.Close()
	return confined.WriteFile(root, TaskFile, []byte(text), 0o644, os.O_CREATE|os.O_TRUNC)
}

// ReplaceTaskFile replaces the task.md the last queued task left with
// text: the same as deleting it and writing a new one (whatever the task
// planted there, a link, a FIFO, a second name of another file, is
// removed, never written through or waited on), but a plain file of its
// own is written over in place, which ext4 makes far cheaper than a new
// file right after a delete (confined.Replace).
func (s *Session) ReplaceTaskFile(text string) error {
	root, err := os.OpenRoot(s.AccessibleDir)
	if err != nil {
		return err
	}
	defer root.Close()
	return confined.Replace(root, TaskFile, []byte(text), 0o644)
}

// RemoveTaskFile deletes the accessible task.md between queued tasks; a
// missing file is not an error. Remove unlinks a planted link itself, never
// its target.
func (s *Session) RemoveTaskFile() error {
	root, err := os.OpenRoot(s.AccessibleDir)
	if err != nil {
		return err
	}
	defer root.Close()
	if err := root.Remove(TaskFile); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// TaskFileSize is the accessible task.md's size; ok is false when there is
// no regular task.md (absent, or a planted link, which is never read).
func (s *Session) TaskFileSize() (size int64, ok bool) {
	root, err := os.OpenRoot(s.AccessibleDir)
	if err != nil {
		return 0, false
	}
	defer root.Close()
	fi, err := root.Lstat(TaskFile)
	if err != nil || !fi.Mode().IsRegular() {
		return 0, false
	}
	return fi.Size(), true
}
