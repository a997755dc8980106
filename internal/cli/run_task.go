package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	runsession "github.com/mur-go/mur/internal/session"
)

// taskHelp is --task's help: the rule taskText follows.
const taskHelp = "the task, written to task.md in the workdir: the contents of VALUE if it names a readable regular file; " +
	"else, if VALUE is one word that contains a / or ends in a file extension (notes/todo, plan.md), it must name one (exit 2 if not); " +
	"else VALUE is the task text itself (\"fix src/main.go\" is text: it has spaces)"

// fileExtension is how a word ends when it is a file name: a dot and a
// short run of letters and digits starting with a letter (".md",
// ".json"), so "v1.2" and "e.g." stay words.
var fileExtension = regexp.MustCompile(`[^./]\.[A-Za-z][A-Za-z0-9]{0,7}$`)

// looksLikePath reports whether a --task value that names no file was
// meant to: one word (no white space) with a path separator, or ending
// in a file extension. A task sentence that mentions a path has spaces.
func looksLikePath(v string) bool {
	if strings.ContainsFunc(v, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' }) {
		return false
	}
	return strings.ContainsRune(v, '/') || strings.ContainsRune(v, filepath.Separator) || fileExtension.MatchString(v)
}

// taskText is what --task VALUE makes the task: the file VALUE names
// (read whole, at most max bytes), else VALUE itself. A value that
// looks like a path (looksLikePath) but names no readable regular file
// is an error naming the path, and so is a task over max bytes: both
// before anything is staged.
func taskText(value string, max int64) (string, error) {
	if value == "" {
		return "", nil
	}
	fi, statErr := os.Stat(value)
	switch {
	case statErr == nil && fi.Mode().IsRegular():
		return readTask(value, max)
	case statErr == nil && looksLikePath(value):
		return "", fmt.Errorf("--task %s: not a regular file (%s); give a file whose contents are the task", value, describeMode(fi.Mode()))
	case looksLikePath(value):
		return "", fmt.Errorf("--task %s: %w; give a readable file, or task text with spaces in it", value, pathCause(statErr))
	}
	if err := runsession.CheckTaskSize(int64(len(value)), max); err != nil {
		return "", err
	}
	return value, nil
}

// readTask reads the task file at path: a regular file (checked again on
// the open file, so a swap between the two is caught) of at most max
// bytes, never more read than that.
func readTask(path string, max int64) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("--task %s: %w", path, pathCause(err))
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", fmt.Errorf("--task %s: %w", path, pathCause(err))
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("--task %s: not a regular file (%s)", path, describeMode(fi.Mode()))
	}
	if err := runsession.CheckTaskSize(fi.Size(), max); err != nil {
		return "", err
	}
	if max <= 0 {
		max = runsession.DefaultMaxTaskBytes
	}
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return "", fmt.Errorf("--task %s: %w", path, pathCause(err))
	}
	if err := runsession.CheckTaskSize(int64(len(b)), max); err != nil {
		return "", err // it grew since the Stat
	}
	return string(b), nil
}

// pathCause is err without the path an *fs.PathError repeats.
func pathCause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		if errors.Is(pe.Err, fs.ErrNotExist) {
			return errors.New("no such file")
		}
		return pe.Err
	}
	return err
}

// describeMode names what a non-regular file is.
func describeMode(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}
