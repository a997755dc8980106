package agent

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mur-go/mur/internal/base/confined"
	"github.com/mur-go/mur/internal/stage"
)

// Task input files in the accessible workdir.
const (
	taskFile  = stage.TaskFile
	inputFile = "input.txt"
)

// files are the workdir files the loop reads and writes at every task:
// task.md, out/result.txt, logs/bootstrap.log; what it writes carries
// guests' text, so the session's secrets are redacted from it. The two
// directories are opened once per run and each access stays inside
// them and follows no planted link (internal/confined), as
// stage.Workdir's one-off writes do; a served capsule runs a task every
// few milliseconds, and opening the session dir, creating out/ and
// reopening the log for each file was a good part of a task's syscalls.
type files struct {
	s         stage.Workdir
	sess, acc *confined.Dir
	// bootstrap is logs/bootstrap.log, opened for appending at the first
	// line: each line is still one write(2) straight to the file.
	bootstrap *os.File
}

func openFiles(s stage.Workdir) (*files, error) {
	sess, err := confined.OpenDir(s.SessionDir)
	if err != nil {
		return nil, fmt.Errorf("opening the session dir: %w", err)
	}
	acc, err := confined.OpenDir(s.AccessibleDir)
	if err != nil {
		sess.Close()
		return nil, fmt.Errorf("opening the workdir: %w", err)
	}
	return &files{s: s, sess: sess, acc: acc}, nil
}

func (f *files) close() error {
	err := errors.Join(f.sess.Close(), f.acc.Close())
	if f.bootstrap != nil {
		err = errors.Join(err, f.bootstrap.Close())
	}
	return err
}

// readTask is the attempt's task text: task.md, else input.txt, else
// empty (session.md §3.8). Links are not followed: the workdir is the
// guests'.
func (f *files) readTask() (string, error) {
	for _, name := range []string{taskFile, inputFile} {
		b, err := f.acc.ReadFile(name)
		if err == nil {
			return string(b), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("reading %s: %w", filepath.Join(f.s.AccessibleDir, name), err)
		}
	}
	return "", nil
}

// writeTask replaces task.md (a reopen's rewrite).
func (f *files) writeTask(text string) error {
	return f.acc.WriteFile(taskFile, []byte(f.s.Secrets().String(text)), 0o644, os.O_CREATE|os.O_TRUNC)
}

// writeResult replaces out/result.txt, the attempt's terminal outcome;
// out/ is made again if a guest removed it.
func (f *files) writeResult(text string) error {
	return f.write(filepath.Join(f.s.OutDir, stage.ResultFile), []byte(f.s.Secrets().String(text)), os.O_CREATE|os.O_TRUNC)
}

// appendBootstrap appends data to logs/bootstrap.log.
func (f *files) appendBootstrap(data []byte) error {
	if f.bootstrap == nil {
		rel, err := f.rel(filepath.Join(f.s.LogsDir, stage.BootstrapLog))
		if err != nil {
			return err
		}
		if err := f.sess.Root().MkdirAll(filepath.Dir(rel), 0o755); err != nil {
			return err
		}
		if f.bootstrap, err = f.sess.OpenFile(rel, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644); err != nil {
			return err
		}
	}
	_, err := f.bootstrap.Write(f.s.Secrets().Bytes(data))
	return err
}

// write writes data to path under the session dir (os.O_WRONLY|flag),
// making its directory only when it is missing.
func (f *files) write(path string, data []byte, flag int) error {
	rel, err := f.rel(path)
	if err != nil {
		return err
	}
	err = f.sess.WriteFile(rel, data, 0o644, flag)
	if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := f.sess.Root().MkdirAll(filepath.Dir(rel), 0o755); err != nil {
		return err
	}
	return f.sess.WriteFile(rel, data, 0o644, flag)
}

func (f *files) rel(path string) (string, error) {
	rel, err := filepath.Rel(f.s.SessionDir, path)
	if err != nil {
		return "", fmt.Errorf("%s is not under the session dir: %w", path, err)
	}
	return rel, nil
}
