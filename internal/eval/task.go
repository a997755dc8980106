package eval

import (
	"errors"
	"io"
	"io/fs"
	"os"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/session"
)

// readTask is the text of a case's task file, relative to the current
// directory as in Murmur, refused when it is missing, empty or larger
// than max bytes (0: session.DefaultMaxTaskBytes). Murmur warns of a
// missing file and runs the session without a task, which an agent
// capsule then waits for over A2A until it gives up and fails; mur-go
// fails the case at once instead.
func readTask(path string, max int64) (string, error) {
	if path == "" {
		return "", diag.New(CodeIO, "task_path is empty").WithHint("name the file holding the case's task")
	}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", diag.Wrap(CodeNotFound, err, "task_path '%s' not found", path).
			WithHint("a relative task_path is read from the current directory")
	case err != nil:
		return "", diag.Wrap(CodeIO, err, "failed to read task_path '%s': %v", path, err)
	case !fi.Mode().IsRegular():
		return "", diag.New(CodeIO, "task_path '%s' is not a regular file", path)
	}
	if err := session.CheckTaskSize(fi.Size(), max); err != nil {
		return "", err
	}
	f, err := os.Open(path)
	if err != nil {
		return "", diag.Wrap(CodeIO, err, "failed to read task_path '%s': %v", path, err)
	}
	defer f.Close()
	if max <= 0 {
		max = session.DefaultMaxTaskBytes
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return "", diag.Wrap(CodeIO, err, "failed to read task_path '%s': %v", path, err)
	}
	if err := session.CheckTaskSize(int64(len(data)), max); err != nil {
		return "", err
	}
	if len(data) == 0 {
		return "", diag.New(CodeIO, "task_path '%s' is empty: an agent is never sent an empty task", path)
	}
	return string(data), nil
}
